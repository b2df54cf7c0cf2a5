import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerAnswers } from "../../server/daemon/docker-probe.ts";
import { DaemonEngine } from "../../server/daemon/engine.ts";
import { LocalNode } from "../../server/link/local-node.ts";
import type { NodeClient } from "../../server/link/node-client.ts";
import { RemoteNode } from "../../server/link/remote-node.ts";
import { productVersion } from "../../server/version.ts";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { freePort } from "../support/free-port.ts";

/**
 * One contract, two implementations: every NodeClient test runs against the
 * in-process LocalNode and against a RemoteNode talking to a real daemon.
 */
interface Subject {
  client: NodeClient;
  close(): Promise<void>;
}

const implementations: Record<string, () => Promise<Subject>> = {
  LocalNode: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-local-node-"));
    const engine = new DaemonEngine({ dataDir: dir, version: productVersion });
    return {
      client: new LocalNode(engine),
      close: async () => {
        await engine.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  RemoteNode: async () => {
    const secret = randomBytes(32).toString("hex");
    const daemon: DaemonProcess = await startDaemon({
      nodeId: 7,
      secret,
      panelUrl: "http://127.0.0.1:1",
      listen: { host: "127.0.0.1", port: await freePort() },
      sftp: { host: "127.0.0.1", port: await freePort() },
      dataDir: "unused",
    });
    return {
      client: new RemoteNode({ nodeId: 7, secret, baseUrl: daemon.baseUrl }),
      close: () => daemon.destroy(),
    };
  },
};

for (const [name, make] of Object.entries(implementations)) {
  describe(`NodeClient contract: ${name}`, () => {
    let subject: Subject;
    beforeAll(async () => {
      subject = await make();
    });
    afterAll(async () => {
      await subject?.close();
    });

    it("answers a health check and is then reachable", async () => {
      await expect(subject.client.health()).resolves.toBeUndefined();
      expect(subject.client.reachable).toBe(true);
    });

    it("reports the host's features", async () => {
      const features = await subject.client.features();
      expect(features.os).toBe("linux");
      expect(features.arch).toBe(process.arch === "x64" ? "amd64" : process.arch);
      expect(features.version).toBe(productVersion);
      expect(features.environments).toContain("host");
      const docker = await dockerAnswers();
      expect(features.features.includes("docker")).toBe(docker);
      expect(features.environments.includes("docker")).toBe(docker);
    });
  });
}
