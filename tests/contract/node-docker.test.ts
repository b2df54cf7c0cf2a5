import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containerName, serverLabel } from "../../server/daemon/docker/container-spec.ts";
import { DaemonEngine } from "../../server/daemon/engine.ts";
import { productVersion } from "../../server/version.ts";
import { type DockerEngine, startDockerEngine, testImage } from "../support/docker-engine.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";

/**
 * The docker environment on both NodeClient implementations, against a real
 * Docker engine (started here when the machine runs none) and an image built
 * offline. No skipping: without an engine these tests fail.
 */
let engine: DockerEngine;
beforeAll(async () => {
  engine = await startDockerEngine();
}, 120_000);
afterAll(async () => {
  await engine?.close();
}, 60_000);

const limits = { memoryMiB: 64, swapMiB: 32, pids: 32, cpuPercent: 50, cpuThreads: "0", ioWeight: 300 };
/** Whether this host's kernel takes a blkio weight the way Docker looks for it (else the engine drops it). */
const blkioWeight =
  fs.existsSync("/sys/fs/cgroup/blkio/blkio.weight") || fs.existsSync("/sys/fs/cgroup/io.weight");
const dockerDefinition = (over: Record<string, unknown> = {}) => {
  const echo = echoDefinition();
  return echoDefinition({
    run: { ...echo.run, command: echo.run.command.replace("sh -c '", "sh -c 'pwd > where.txt; ") },
    environment: { type: "docker", image: testImage },
    requirements: { os: "linux", binaries: ["no-such-program-on-the-host"] },
    limits,
    ...over,
  });
};

/** The containers the engine has for a server, running or not. */
const containersOf = (id: string) =>
  engine.docker.listContainers({ all: true, filters: { label: [`${serverLabel}=${id}`] } });

for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`docker environment: ${name}`, { timeout: 60_000 }, () => {
    let subject: NodeUnderTest;
    const id = name === "LocalNode" ? "d0c4e001" : "d0c4e002";
    const output = async () =>
      Buffer.from((await subject.client.servers.console(id, 0)).logs, "base64").toString();

    beforeAll(async () => {
      subject = await make({ dockerSocket: engine.socket });
    });
    afterAll(async () => {
      await subject?.close();
    });

    it("reports docker among its features", async () => {
      const features = await subject.client.features();
      expect(features.features).toContain("docker");
      expect(features.environments).toContain("docker");
    });

    it("runs a server in a container: console both ways, its limits, its folder, stop leaves no container", async () => {
      // The host's binaries are not the container's business (reference §6).
      await subject.client.servers.createServer(
        id,
        // Runs in the image too: the host has no /pufferpanel.
        dockerDefinition({ install: [{ type: "command", commands: ["sh -c 'pwd > installed-in.txt'"] }] }),
      );
      await subject.client.servers.action(id, "install", true);
      const folder = path.join(subject.dataDir, "servers", id);
      expect(fs.readFileSync(path.join(folder, "installed-in.txt"), "utf8")).toBe("/pufferpanel\n");
      expect(await containersOf(id)).toEqual([]);
      await subject.client.servers.action(id, "start", true);
      await waitUntil(async () => (await output()).includes("ready hello on 25565"), 20_000, 100);

      const inspect = await engine.docker.getContainer(containerName(id)).inspect();
      expect(inspect.State.Running).toBe(true);
      expect(inspect.HostConfig.Memory).toBe(64 * 1024 * 1024);
      // Memory and swap together: the 32 MiB of swap beside the 64 MiB.
      expect(inspect.HostConfig.MemorySwap).toBe(96 * 1024 * 1024);
      expect(inspect.HostConfig.CpusetCpus).toBe("0");
      expect(inspect.HostConfig.BlkioWeight).toBe(blkioWeight ? 300 : 0);
      // The container's process runs on CPU 0 only.
      const status = fs.readFileSync(`/proc/${inspect.State.Pid}/status`, "utf8");
      expect(/^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1]).toBe("0");
      expect(inspect.HostConfig.PidsLimit).toBe(32);
      expect(inspect.HostConfig.NanoCpus).toBe(500_000_000);
      expect(inspect.HostConfig.Binds).toEqual([`${path.join(subject.dataDir, "servers", id)}:/pufferpanel`]);
      expect(inspect.HostConfig.CapDrop).toEqual(["ALL"]);
      const owner = fs.statSync(folder);
      expect(inspect.Config.User).toBe(`${owner.uid}:${owner.gid}`);
      // The node's own environment stays outside.
      expect(
        inspect.Config.Env.some((e) => e.startsWith("OUTPOST_") || e.startsWith("PATH=/usr/local")),
      ).toBe(false);

      await subject.client.servers.sendConsole(id, "ping");
      await waitUntil(async () => (await output()).includes("pong ping"), 10_000, 100);
      // The server folder is mounted as the container's working directory.
      expect(fs.readFileSync(path.join(subject.dataDir, "servers", id, "where.txt"), "utf8")).toBe(
        "/pufferpanel\n",
      );
      const stats = await subject.client.servers.stats(id);
      expect(stats.memory).toBeGreaterThan(0);

      await subject.client.servers.action(id, "stop", true);
      expect(await subject.client.servers.status(id)).toEqual({
        running: false,
        installing: false,
        installed: true,
      });
      expect(await output()).toContain("bye");
      expect(await output()).toContain("Server exited with code 0");
      expect(await containersOf(id)).toEqual([]);
    });

    it("kills a server that ignores its stop text, and again leaves no container", async () => {
      await subject.client.servers.action(id, "start", true);
      await waitUntil(async () => (await output()).split("ready hello").length === 3, 20_000, 100);
      expect(await containersOf(id)).toHaveLength(1);
      await subject.client.servers.action(id, "kill", true);
      expect((await subject.client.servers.status(id)).running).toBe(false);
      expect(await output()).toContain("Server was ended by SIGKILL");
      expect(await containersOf(id)).toEqual([]);
    });

    it("stops by the definition's stop signal, sent to the container", async () => {
      const signalled = name === "LocalNode" ? "d0c4e0c1" : "d0c4e0c2";
      await subject.client.servers.createServer(
        signalled,
        dockerDefinition({
          run: {
            command: `sh -c 'trap "echo got-term; exit 0" TERM; echo ready; while :; do sleep 1; done'`,
            stopCode: 15,
          },
        }),
      );
      const logs = async () =>
        Buffer.from((await subject.client.servers.console(signalled, 0)).logs, "base64").toString();
      await subject.client.servers.action(signalled, "start", true);
      await waitUntil(async () => (await logs()).includes("ready"), 20_000, 100);
      await subject.client.servers.action(signalled, "stop", true);
      expect(await logs()).toContain("got-term");
      expect(await logs()).toContain("Server exited with code 0");
      expect(await containersOf(signalled)).toEqual([]);
      await subject.client.servers.deleteServer(signalled);
    });

    it("runs as the folder's owner, and a server over its memory limit is killed and says why", async () => {
      const hungry = name === "LocalNode" ? "d0c4e0a1" : "d0c4e0a2";
      await subject.client.servers.createServer(
        hungry,
        dockerDefinition({
          run: { command: `sh -c 'echo mine > owned.txt; echo ready; exec tail -c 200000000 /dev/zero'` },
          limits: { memoryMiB: 16 },
        }),
      );
      const folder = path.join(subject.dataDir, "servers", hungry);
      fs.chownSync(folder, 61000, 61000);
      const logs = async () =>
        Buffer.from((await subject.client.servers.console(hungry, 0)).logs, "base64").toString();
      await subject.client.servers.action(hungry, "start", true);
      // The exit notice comes once the container is gone.
      await waitUntil(async () => (await logs()).includes("Server was ended by SIGKILL"), 45_000, 200).catch(
        async (err) => {
          throw new Error(`${err.message}; console:\n${await logs()}`);
        },
      );
      expect(await logs()).toContain("went over its memory limit");
      expect((await subject.client.servers.status(hungry)).running).toBe(false);
      expect(fs.statSync(path.join(folder, "owned.txt")).uid).toBe(61000);
      expect(await containersOf(hungry)).toEqual([]);
      await subject.client.servers.deleteServer(hungry);
    });

    it("says in the console and the answer when an image cannot be had", async () => {
      const missing = name === "LocalNode" ? "d0c4e0f1" : "d0c4e0f2";
      await subject.client.servers.createServer(
        missing,
        dockerDefinition({ environment: { type: "docker", image: "outpost-test/not-there:1" } }),
      );
      await expect(subject.client.servers.action(missing, "start", true)).rejects.toMatchObject({
        code: "ErrDockerImageUnavailable",
      });
      const logs = Buffer.from((await subject.client.servers.console(missing, 0)).logs, "base64").toString();
      expect(logs).toContain("Pulling image outpost-test/not-there:1");
      expect(logs).toContain("Could not pull image outpost-test/not-there:1");
      expect(await subject.client.servers.status(missing)).toEqual({
        running: false,
        installing: false,
        installed: true,
      });
      expect(await containersOf(missing)).toEqual([]);
      await subject.client.servers.deleteServer(missing);
    });

    it("refuses a server on CPU threads the host does not have, leaving no container", async () => {
      const pinned = name === "LocalNode" ? "d0c4e0f3" : "d0c4e0f4";
      await subject.client.servers.createServer(pinned, dockerDefinition({ limits: { cpuThreads: "4000" } }));
      await expect(subject.client.servers.action(pinned, "start", true)).rejects.toMatchObject({
        status: 409,
        code: "ErrCpuThreadsUnavailable",
      });
      const logs = Buffer.from((await subject.client.servers.console(pinned, 0)).logs, "base64").toString();
      expect(logs).toMatch(/Could not start the container: .*4000/);
      expect(await containersOf(pinned)).toEqual([]);
      await subject.client.servers.deleteServer(pinned);
    });

    it("deletes the server", async () => {
      await subject.client.servers.deleteServer(id);
      expect(await containersOf(id)).toEqual([]);
    });
  });
}

describe("docker environment after a node crashed", () => {
  it("removes the container a crashed node left running, when the node starts again", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-docker-node-"));
    const id = "d0c4e0b1";
    try {
      const before = new DaemonEngine({ dataDir, version: productVersion, dockerSocket: engine.socket });
      await before.servers.create(id, dockerDefinition());
      // What a crash leaves: the server's container still running, no node watching it.
      const orphan = await engine.docker.createContainer({
        name: containerName(id),
        Image: testImage,
        Cmd: ["sleep", "300"],
        Labels: { [serverLabel]: id },
        HostConfig: { NetworkMode: "none" },
      });
      await orphan.start();
      expect(await containersOf(id)).toHaveLength(1);
      const after = new DaemonEngine({ dataDir, version: productVersion, dockerSocket: engine.socket });
      await after.start();
      expect(await containersOf(id)).toEqual([]);
      await after.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("docker environment and the disk limit", () => {
  it("stops a container whose process writes past the server's disk limit, and refuses its start while over", {
    timeout: 60_000,
  }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-docker-disk-"));
    const id = "d0c4e0d1";
    // Checked often here so the test is quick; a node checks every 30 s by default.
    const node = new DaemonEngine({
      dataDir,
      version: productVersion,
      dockerSocket: engine.socket,
      diskCheckMs: 200,
    });
    try {
      await node.start();
      const server = await node.servers.create(
        id,
        dockerDefinition({
          // Writes on and on in the mounted server folder, deaf to the stop text.
          run: {
            command: `sh -c 'echo filling; while :; do head -c 65536 /dev/zero >> fill.bin; sleep 0.02; done'`,
            stop: "stop",
          },
          limits: { ...limits, diskMiB: 1 },
        }),
      );
      const logs = () => server.instance.console.since(0).logs.toString();
      await server.start();
      // Gone once it is not running and its container is removed (the removal comes a moment later).
      const gone = async (subject: typeof server) =>
        !subject.status().running && (await containersOf(subject.id)).length === 0;
      await waitUntil(() => gone(server), 20_000, 100).catch((err) => {
        throw new Error(`${err.message}; console:\n${logs()}`);
      });
      expect(logs()).toContain("Server went over its disk limit (1 MiB): stopping it");
      expect(logs()).toContain("Server is still over its disk limit (1 MiB), killing it");
      await expect(server.start()).rejects.toMatchObject({ status: 507, code: "ErrDiskLimit" });
      await node.fileOps.remove(id, "fill.bin");
      await server.start();
      await server.instance.kill();
      expect(await containersOf(id)).toEqual([]);

      // Written inside the container outside the server's folder (its /tmp), it counts too while the container lives.
      const layered = await node.servers.create(
        "d0c4e0d2",
        dockerDefinition({
          run: {
            command: `sh -c 'echo filling; while :; do head -c 65536 /dev/zero >> /tmp/fill.bin; sleep 0.02; done'`,
            stop: "stop",
          },
          limits: { ...limits, diskMiB: 1 },
        }),
      );
      const layeredLogs = () => layered.instance.console.since(0).logs.toString();
      await layered.start();
      await waitUntil(() => gone(layered), 20_000, 100).catch((err) => {
        throw new Error(`${err.message}; console:\n${layeredLogs()}`);
      });
      expect(layeredLogs()).toContain("Server went over its disk limit (1 MiB): stopping it");
      // The container went with what it held: the server starts again.
      await layered.start();
      await layered.instance.kill();
    } finally {
      await node.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("docker environment without an engine", () => {
  it("is not among the features and a docker server is refused", async () => {
    const subject = await nodeImplementations.LocalNode({ dockerSocket: "/nonexistent/docker.sock" });
    try {
      expect((await subject.client.features()).features).not.toContain("docker");
      await expect(subject.client.servers.createServer("d0c4e0ff", dockerDefinition())).rejects.toMatchObject(
        {
          code: "ErrDockerNotSupported",
        },
      );
    } finally {
      await subject.close();
    }
  });
});
