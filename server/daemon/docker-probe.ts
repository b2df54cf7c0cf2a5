import http from "node:http";

/** True when a Docker engine answers `/_ping` on its socket within the timeout. */
export function dockerAnswers(socketPath = "/var/run/docker.sock", timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ socketPath, path: "/_ping", timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => {
      req.destroy();
      resolve(false);
    });
    req.on("error", () => resolve(false));
  });
}
