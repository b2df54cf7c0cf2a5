/**
 * A small real server for tests: a shell loop that prints a banner, answers
 * "ping" with "pong", reports its variables, and leaves on "stop". No install
 * steps, so it needs nothing but `sh`.
 */
export function echoDefinition(over: Record<string, unknown> = {}) {
  return {
    type: "test",
    display: "Echo server",
    data: {
      motd: { type: "string", value: "hello", display: "Message", userEdit: true },
      secret: { type: "string", value: "s3", display: "Admin only", userEdit: false },
      port: { type: "integer", value: 25565, display: "Port" },
    },
    groups: [{ display: "General", variables: ["motd", "port"], order: 0 }],
    install: [],
    run: {
      // The values go after the script, as $1 and $2: a user's value inside a shell script is refused.
      command: `sh -c 'echo "ready $1 on $2"; while read line; do [ "$line" = stop ] && { echo bye; exit 0; }; echo "pong $line"; done' echo "\${motd}" "\${port}"`,
      stop: "stop",
    },
    environment: { type: "host" },
    requirements: { os: "linux", binaries: ["sh"] },
    ...over,
  };
}
