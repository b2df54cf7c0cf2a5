import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { rawRequest } from "../support/file-requests.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { consoleText } from "../support/server-console.ts";
import { type PanelClient, registeredClient, usePanelWithRemoteNode } from "../support/test-panel.ts";

/** The cgroup folders of a server, in every v1 hierarchy this host mounts (none once it is gone). */
function cgroupsOf(id: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const at = path.join(dir, entry.name);
      if (entry.name.startsWith("outpost-") && entry.name.endsWith(`-${id}`)) found.push(at);
      else if (depth < 4) visit(at, depth + 1);
    }
  };
  for (const controller of ["memory", "pids", "cpu", "cpuacct", "freezer", "cpuset", "blkio", "unified"]) {
    visit(path.join("/sys/fs/cgroup", controller), 0);
  }
  return found;
}

/** A file of a server's groups as the kernel answers it: the one group of `id` that has it. */
function groupFile(id: string, name: string): string | undefined {
  const dir = cgroupsOf(id).find((at) => fs.existsSync(path.join(at, name)));
  return dir === undefined ? undefined : fs.readFileSync(path.join(dir, name), "utf8").trim();
}

const mib = 1024 * 1024;

describe("server limits", () => {
  const remote = usePanelWithRemoteNode("limited");
  const panel = () => remote().panel;
  let api: PanelClient;
  beforeAll(() => {
    api = remote().api;
  });

  it("lists limits in both nodes' features", async () => {
    for (const node of [0, remote().nodeId]) {
      expect((await api.get(`/api/nodes/${node}/features`)).body.features).toContain("limits");
    }
  });

  for (const [label, nodeOf] of [
    ["local", () => 0],
    ["remote", () => remote().nodeId],
  ] as const) {
    it(`kills a ${label} server that goes over its memory limit and reports it, leaving no cgroup`, async () => {
      const id = label === "local" ? "11a00001" : "11b00001";
      const definition = echoDefinition({
        // tail keeps a 300 MiB "line" in memory: far over 64 MiB.
        run: { command: `sh -c 'echo filling; head -c 300M /dev/zero | tail -n 1 | wc -c'`, stop: "stop" },
        limits: { memoryMiB: 64 },
      });
      expect((await api.put(`/api/servers/${id}`, { ...definition, node: nodeOf() })).status).toBe(200);
      expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
      await waitUntil(async () => /memory limit/.test(await consoleText(api, id)), 30_000, 200);
      const text = await consoleText(api, id);
      expect(text).toContain("Server was killed: it went over its memory limit (64 MiB)");
      expect(text).not.toContain("314572800");
      await waitUntil(
        async () => (await api.get(`/api/servers/${id}/status`)).body.running === false,
        10_000,
      );
      expect(cgroupsOf(id)).toEqual([]);
    });
  }

  for (const [label, nodeOf] of [
    ["local", () => 0],
    ["remote", () => remote().nodeId],
  ] as const) {
    it(`keeps the panel answering while a fork bomb runs under a process limit on the ${label} node`, async () => {
      const id = label === "local" ? "11c00002" : "11c00001";
      // A neighbour on the same node, running.
      const neighbour = label === "local" ? "11c00012" : "11c00011";
      expect(
        (await api.put(`/api/servers/${neighbour}`, { ...echoDefinition(), node: nodeOf() })).status,
      ).toBe(200);
      expect((await api.post(`/api/servers/${neighbour}/start`)).status).toBe(204);
      await waitUntil(async () => (await consoleText(api, neighbour)).includes("ready"), 10_000, 100);
      const definition = echoDefinition({
        run: {
          command: `sh -c 'echo bombing; bomb() { bomb | bomb & }; bomb; sleep 60'`,
          stop: "stop",
        },
        limits: { pids: 32, cpuPercent: 50 },
      });
      expect((await api.put(`/api/servers/${id}`, { ...definition, node: nodeOf() })).status).toBe(200);
      expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
      await waitUntil(async () => /fork/i.test(await consoleText(api, id)), 20_000, 200);
      // The panel and the node go on answering: lists, the node, stats of this one, and the neighbour's console.
      for (let i = 0; i < 5; i++) {
        expect((await api.get("/api/servers")).status).toBe(200);
        expect((await api.get(`/api/nodes/${nodeOf()}/features`)).status).toBe(200);
        expect((await api.get(`/api/servers/${id}/stats`)).status).toBe(200);
        const sent = await api.call("POST", `/api/servers/${neighbour}/console`, {
          raw: `ping${i}`,
          headers: { "content-type": "text/plain" },
        });
        expect(sent.status).toBe(204);
        await waitUntil(
          async () => (await consoleText(api, neighbour)).includes(`pong ping${i}`),
          10_000,
          50,
        );
      }
      const pidsDir = cgroupsOf(id).find((dir) => fs.existsSync(path.join(dir, "pids.current")));
      if (pidsDir) {
        expect(Number(fs.readFileSync(path.join(pidsDir, "pids.current"), "utf8"))).toBeLessThanOrEqual(32);
      }
      expect((await api.post(`/api/servers/${id}/kill`)).status).toBe(204);
      expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(false);
      expect(cgroupsOf(id)).toEqual([]);
      expect((await api.post(`/api/servers/${neighbour}/stop?wait`)).status).toBe(204);
    });
  }

  it("holds a server to its swap and CPU threads, read back from the kernel, and to its IO weight where the host has one", async () => {
    const id = "11h00001";
    const limits = { memoryMiB: 128, swapMiB: 64, cpuThreads: "1", ioWeight: 800 };
    expect(
      (await api.put(`/api/servers/${id}`, { ...echoDefinition({ limits }), node: remote().nodeId })).status,
    ).toBe(200);
    expect((await api.get(`/api/servers/${id}/definition`)).body.limits).toEqual(limits);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("ready"), 10_000, 100);
    const v2 = cgroupsOf(id).some((dir) => dir.startsWith("/sys/fs/cgroup/unified"));
    if (v2) {
      expect(groupFile(id, "memory.max")).toBe(String(128 * mib));
      expect(groupFile(id, "memory.swap.max")).toBe(String(64 * mib));
    } else {
      expect(groupFile(id, "memory.limit_in_bytes")).toBe(String(128 * mib));
      // v1 counts memory and swap together.
      expect(groupFile(id, "memory.memsw.limit_in_bytes")).toBe(String(192 * mib));
    }
    expect(groupFile(id, "cpuset.cpus")).toBe("1");
    // Every process of the server may run on CPU 1 only.
    const pids = (groupFile(id, "cgroup.procs") ?? "").split("\n").filter(Boolean);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      expect(/^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1]).toBe("1");
    }
    // Docker's 800 against its unweighted 500: as io.weight / blkio.bfq.weight, 160 against their unweighted 100.
    const weights = v2
      ? { "io.weight": "default 160", "io.bfq.weight": "default 160" }
      : { "blkio.weight": "800", "blkio.bfq.weight": "160" };
    const set = Object.keys(weights).filter((name) => groupFile(id, name) !== undefined);
    if (set.length > 0) {
      for (const name of set) expect(groupFile(id, name)).toContain(weights[name as keyof typeof weights]);
    } else {
      // A kernel with neither: the server runs, and the node's log says so.
      expect(remote().daemon.logs()).toMatch(/servers run without their IO weight/);
    }
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    expect(cgroupsOf(id)).toEqual([]);
  });

  it("refuses to start a server on CPU threads the host does not have, saying how to fix it", async () => {
    const id = "11h00002";
    const definition = echoDefinition({ limits: { cpuThreads: "4000" } });
    expect((await api.put(`/api/servers/${id}`, { ...definition, node: remote().nodeId })).status).toBe(200);
    const started = await api.post(`/api/servers/${id}/start`);
    expect(started.status).toBe(409);
    expect(started.body.error.code).toBe("ErrCpuThreadsUnavailable");
    expect(started.body.error.metadata).toMatchObject({ cpus: "4000" });
    expect(started.body.error.metadata.reason).toContain("cpuset.cpus");
    expect(await consoleText(api, id)).toContain("Could not apply the server's limits");
    expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(false);
    expect(cgroupsOf(id)).toEqual([]);
    // What is no cpuset list is refused when saved, before any node sees it.
    const invalid = await api.put(`/api/servers/${id}/definition`, {
      ...definition,
      limits: { cpuThreads: "0 - 1" },
    });
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.body)).toContain("limits.cpuThreads");
  });

  it("removes the cgroups a crashed node left, when it starts again", async () => {
    const id = "11g00001";
    const definition = echoDefinition({ limits: { memoryMiB: 128 } });
    expect((await api.put(`/api/servers/${id}`, { ...definition, node: remote().nodeId })).status).toBe(200);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("ready"), 10_000, 100);
    await remote().daemon.crash();
    // The server died with its node (the sandbox ends with its parent); its groups stayed.
    expect(cgroupsOf(id).length).toBeGreaterThan(0);
    await remote().daemon.start();
    expect(cgroupsOf(id)).toEqual([]);
    expect(remote().daemon.logs()).toMatch(/removed \d+ cgroup\(s\) a previous run left/);
  });

  it("reports stats from the server's cgroup", async () => {
    const id = "11d00001";
    const definition = echoDefinition({ limits: { memoryMiB: 256 } });
    expect((await api.put(`/api/servers/${id}`, { ...definition, node: 0 })).status).toBe(200);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("ready"), 10_000, 100);
    const stats = await api.get(`/api/servers/${id}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body.memory).toBeGreaterThan(0);
    // With the limits in force (the node's defaults filled in), for a list that shows usage against them.
    expect(stats.body.limits).toMatchObject({ memoryMiB: 256 });
    expect(stats.body.limits.pids).toBeGreaterThan(0);
    expect(cgroupsOf(id).length).toBeGreaterThan(0);
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    expect(cgroupsOf(id)).toEqual([]);
  });

  it("lets only administrators set limits: a server user's definition keeps them", async () => {
    const id = "11e00001";
    const user = { username: "limited-user", email: "limited@example.com", password: "limited-password-1" };
    const userApi = await registeredClient(panel(), user);
    const definition = echoDefinition({ limits: { memoryMiB: 128, pids: 64 } });
    expect((await api.put(`/api/servers/${id}`, { ...definition, node: 0 })).status).toBe(200);
    await setServerScopes(panel(), user.email, id, [
      "server.view",
      "server.definition.view",
      "server.definition.edit",
    ]);
    // Raising them is refused.
    const raised = await userApi.put(`/api/servers/${id}/definition`, {
      ...definition,
      limits: { memoryMiB: 4096 },
    });
    expect(raised.status).toBe(403);
    expect(raised.body.error.code).toBe("ErrLimitsAdminOnly");
    // Leaving them out changes the rest and keeps them.
    const { limits: _, ...withoutLimits } = definition as Record<string, unknown>;
    const edited = await userApi.put(`/api/servers/${id}/definition`, {
      ...withoutLimits,
      display: "Renamed",
    });
    expect(edited.status).toBe(204);
    let stored = (await api.get(`/api/servers/${id}/definition`)).body;
    expect(stored.display).toBe("Renamed");
    expect(stored.limits).toEqual({ memoryMiB: 128, pids: 64 });
    // Sending them back unchanged is fine; an administrator changes them.
    expect((await userApi.put(`/api/servers/${id}/definition`, stored)).status).toBe(204);
    expect(
      (await api.put(`/api/servers/${id}/definition`, { ...stored, limits: { memoryMiB: 512 } })).status,
    ).toBe(204);
    stored = (await api.get(`/api/servers/${id}/definition`)).body;
    expect(stored.limits).toEqual({ memoryMiB: 512 });
  });

  it("stops file writes, uploads, extraction and backups at the disk limit, with a clear error", async () => {
    const id = "11f00001";
    const definition = echoDefinition({ limits: { diskMiB: 1 } });
    expect((await api.put(`/api/servers/${id}`, { ...definition, node: remote().nodeId })).status).toBe(200);
    const base = `/api/servers/${id}/file`;
    const names = async () =>
      (await rawRequest(api, "GET", `${base}/`)).json.map((e: { name: string }) => e.name).sort();
    expect((await rawRequest(api, "PUT", `${base}/small.txt`, { body: "fits" })).status).toBe(204);

    // An upload over the limit is cut where the limit is; the file it would replace stays as it was.
    const big = await rawRequest(api, "PUT", `${base}/small.txt`, { body: Buffer.alloc(2 * 1024 * 1024, 7) });
    expect(big.status).toBe(507);
    expect(big.json.error.code).toBe("ErrDiskLimit");
    // The message is a template the client fills from metadata, as the reference's errors are.
    expect(big.json.error.msg).toContain("disk limit (${limit} MiB)");
    expect(big.json.error.metadata).toEqual({ limit: 1 });
    expect(await names()).toEqual(["small.txt"]);
    expect((await rawRequest(api, "GET", `${base}/small.txt`)).text).toBe("fits");

    // An archive that unpacks to more than the limit (2 MiB of zeros, a few KiB packed) stops there.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-disk-"));
    try {
      fs.writeFileSync(path.join(work, "zeros.bin"), Buffer.alloc(2 * 1024 * 1024));
      tar.c({ gzip: true, cwd: work, file: path.join(work, "bomb.tar.gz"), sync: true }, ["zeros.bin"]);
      const packed = fs.readFileSync(path.join(work, "bomb.tar.gz"));
      expect((await rawRequest(api, "PUT", `${base}/bomb.tar.gz`, { body: packed })).status).toBe(204);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    const extracted = await api.post(`${base.replace("/file", "/extract")}/bomb.tar.gz?destination=out`);
    expect(extracted.status, extracted.text).toBe(507);
    expect(extracted.body.error.code).toBe("ErrDiskLimit");
    // What it unpacked before the limit is taken back.
    expect((await rawRequest(api, "GET", `${base}/out/zeros.bin`)).status).toBe(404);
    await api.delete(`${base}/out`);

    // Filled near the limit (folders count too), the next write stops at it, and a backup fails where it is.
    const fill = await rawRequest(api, "PUT", `${base}/fill.bin`, {
      body: crypto.randomBytes(1024 * 1024 - 64 * 1024),
    });
    expect(fill.status).toBe(204);
    const more = await rawRequest(api, "PUT", `${base}/more.bin`, { body: Buffer.alloc(128 * 1024, 2) });
    expect(more.status).toBe(507);
    expect((await api.post(`/api/servers/${id}/backup/create?name=full`)).status).toBe(204);
    let backup: { state: string; error?: string } = { state: "creating" };
    await waitUntil(async () => {
      const list = (await api.get(`/api/servers/${id}/backup`)).body as { name: string; state: string }[];
      backup = list.find((b) => b.name === "full") ?? backup;
      return backup.state !== "creating";
    }, 30_000);
    expect(backup.state).toBe("failed");
    expect(backup.error).toContain("disk limit (1 MiB)");
    expect(await consoleText(api, id)).toContain("Backup failed: the server's disk limit (1 MiB)");
    // The server's files are untouched by all of it.
    expect(await names()).toEqual(["bomb.tar.gz", "fill.bin", "small.txt"]);
  });
});
