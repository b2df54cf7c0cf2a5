/** Asks for a secret on the terminal without echoing it. node:readline loads here, not with `outpost serve`. */
export async function promptSecret(question: string): Promise<string> {
  if (!process.stdin.isTTY) {
    throw new Error("no terminal to ask for a password on: pass --password");
  }
  const readline = await import("node:readline");
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    process.stdout.write(question);
    output._writeToOutput = () => {};
    rl.question("", (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
  });
}
