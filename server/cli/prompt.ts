import readline from "node:readline";

/** Asks for a secret on the terminal without echoing it. */
export function promptSecret(question: string): Promise<string> {
  if (!process.stdin.isTTY) {
    return Promise.reject(new Error("no terminal to ask for a password on: pass --password"));
  }
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
