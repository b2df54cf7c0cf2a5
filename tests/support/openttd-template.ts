/**
 * A real game server for tests: Debian's OpenTTD dedicated server on a tiny
 * map (reference templates.md, "Real servers for tests"). Its install step
 * writes the config; it stops on "quit" and answers console commands.
 */
export function openttdTemplate(port: number) {
  return {
    type: "openttd",
    display: "OpenTTD (Debian, test)",
    data: {
      ip: {
        type: "string",
        value: "127.0.0.1",
        display: "IP",
        desc: "bind address",
        required: true,
        userEdit: false,
      },
      port: {
        type: "integer",
        value: port,
        display: "Port",
        desc: "game port",
        required: true,
        userEdit: false,
      },
      maxplayers: {
        type: "integer",
        value: 10,
        display: "Max clients",
        desc: "",
        required: true,
        userEdit: true,
      },
      servername: {
        type: "string",
        value: "Outpost OpenTTD",
        display: "Name",
        desc: "",
        required: true,
        userEdit: true,
      },
    },
    install: [
      {
        type: "writefile",
        target: "openttd.cfg",
        text: "[network]\nserver_name = ${servername}\nserver_game_type = local\nmax_clients = ${maxplayers}\nuse_relay_service = never\n[game_creation]\nmap_x = 6\nmap_y = 6\n",
      },
    ],
    run: {
      command: "/usr/games/openttd -D ${ip}:${port} -c ${rootDir}/openttd.cfg -x",
      stop: "quit",
      stdin: { type: "stdin" },
      autostart: false,
      autorecover: false,
      autorestart: false,
    },
    environment: { type: "host" },
    supportedEnvironments: [{ type: "host" }],
    requirements: { os: "linux", binaries: ["/usr/games/openttd"] },
    query: { type: "openttd" },
  };
}
