import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { rawRequest } from "../support/file-requests.ts";
import { waitUntil } from "../support/poll.ts";
import { consoleText } from "../support/server-console.ts";
import { runSftp } from "../support/sftp-client.ts";
import { admin, type PanelClient, usePanelWithRemoteNode } from "../support/test-panel.ts";

/** Runs a one-shot server command and answers its console once it has exited. */
async function runOnce(api: PanelClient, id: string, node: number, script: string): Promise<string> {
  const definition = echoDefinition({ run: { command: `sh -c '${script}'`, stop: "stop" } });
  expect((await api.put(`/api/servers/${id}`, { ...definition, node })).status).toBe(200);
  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
  await waitUntil(async () => /exited with code|ended by/.test(await consoleText(api, id)), 20_000, 100);
  return consoleText(api, id);
}

describe("the hardened host environment", () => {
  const remote = usePanelWithRemoteNode("sandboxed");
  const panel = () => remote().panel;
  let api: PanelClient;
  beforeAll(() => {
    api = remote().api;
  });

  it("lists the sandbox in both nodes' features", async () => {
    for (const node of [0, remote().nodeId]) {
      const features = await api.get(`/api/nodes/${node}/features`);
      expect(features.status).toBe(200);
      expect(features.body.features).toContain("sandbox");
    }
    // And both say so at start-up, in one line, with what.
    for (const log of [panel().logs(), remote().daemon.logs()]) {
      expect(log).toMatch(/host servers run sandboxed: bubblewrap \d+\.\d+/);
    }
  });

  for (const [label, nodeOf, serversOf, keysOf] of [
    // The node's SFTP host key (the folders around the server's own exist inside, empty).
    [
      "local",
      () => 0,
      () => path.join(panel().dataDir, "node", "servers"),
      () => path.join(panel().dataDir, "node", "sftp_host_ed25519_key"),
    ],
    // A remote node's config file holds the token the panel signs in with.
    [
      "remote",
      () => remote().nodeId,
      () => path.join(remote().daemon.config.dataDir, "servers"),
      () => remote().daemon.configFile,
    ],
  ] as const) {
    it(`keeps a ${label} server away from the panel's data, its environment and other servers`, async () => {
      const prefix = label === "local" ? "5a" : "5b";
      const servers = serversOf();
      // A neighbour with a file of its own.
      const neighbour = `${prefix}000001`;
      expect(
        (await api.put(`/api/servers/${neighbour}`, { ...echoDefinition(), node: nodeOf() })).status,
      ).toBe(200);
      const secret = await rawRequest(api, "PUT", `/api/servers/${neighbour}/file/secret.txt`, {
        body: "neighbour-secret",
      });
      expect(secret.status).toBe(204);
      expect(fs.readFileSync(path.join(servers, neighbour, "secret.txt"), "utf8")).toBe("neighbour-secret");

      const database = path.join(panel().dataDir, "outpost.db");
      const text = await runOnce(
        api,
        `${prefix}000002`,
        nodeOf(),
        [
          `cat ${database} >/dev/null && echo LEAK-database || echo refused-database`,
          `ls ${servers} | grep ${neighbour} && echo LEAK-other-servers || echo refused-other-servers`,
          `cat ${path.join(servers, neighbour, "secret.txt")} && echo LEAK-neighbour || echo refused-neighbour`,
          `env | grep -E "^(OUTPOST_|DATABASE_URL|npm_)" && echo LEAK-environment || echo clean-environment`,
          // The panel's environment holds the first administrator's password (OUTPOST_ADMIN_PASSWORD).
          `grep -a -r "${admin.password}" /proc/*/environ && echo LEAK-panel-environment || echo clean-proc`,
          `cat /proc/${panel().pid}/environ >/dev/null && echo LEAK-panel-process || echo refused-panel-process`,
          `cat ${keysOf()} >/dev/null && echo LEAK-keys || echo refused-keys`,
          "id -u",
          "echo written > own-file && echo own-folder-writable",
          // No user namespace of its own inside (a root there is a kernel attack surface).
          "unshare -r true && echo LEAK-nested-userns || echo refused-nested-userns",
          'echo "path=$PATH"',
        ].join("; "),
      );
      expect(text).not.toContain("LEAK");
      expect(text).not.toContain("neighbour-secret");
      expect(text).not.toContain(admin.password);
      for (const mark of [
        "refused-database",
        "refused-other-servers",
        "refused-neighbour",
        "clean-environment",
        "clean-proc",
        "refused-panel-process",
        "refused-keys",
        "own-folder-writable",
        "refused-nested-userns",
      ]) {
        expect(text).toContain(mark);
      }
      // The system's folders and the node's shared binaries, not the panel's PATH (node_modules/.bin, home folders).
      const binaries = path.join(path.dirname(servers), "binaries");
      expect(/^path=(.*)$/m.exec(text)?.[1]).toBe(
        `${binaries}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/games:/usr/games`,
      );
      // The failures themselves are on the console (cat's and ls's own messages).
      expect(text).toMatch(/No such file or directory/);
      if (process.getuid?.() === 0) {
        // Not root: a uid of the server's own, which owns what it wrote.
        const uid = Number(/^(\d+)$/m.exec(text)?.[1]);
        expect(uid).toBeGreaterThan(0);
        expect(fs.statSync(path.join(servers, `${prefix}000002`, "own-file")).uid).toBe(uid);
      }
    });
  }

  it.runIf(process.getuid?.() === 0)("gives each node on the host its own block of server uids", () => {
    // The servers the test above ran, one on each node: before blocks, both nodes counted from 600000.
    const local = fs.statSync(path.join(panel().dataDir, "node", "servers", "5a000002")).uid;
    const remoteUid = fs.statSync(path.join(remote().daemon.config.dataDir, "servers", "5b000002")).uid;
    const block = (uid: number) => Math.floor((uid - 600_000) / 100_000);
    expect(local).toBeGreaterThanOrEqual(600_000);
    expect(remoteUid).toBeGreaterThanOrEqual(600_000);
    expect(block(local)).not.toBe(block(remoteUid));
    const registry = JSON.parse(fs.readFileSync("/var/lib/outpost-uids/blocks.json", "utf8"));
    expect(registry[fs.realpathSync(path.join(panel().dataDir, "node", "servers"))]).toBe(block(local));
    expect(registry[fs.realpathSync(path.join(remote().daemon.config.dataDir, "servers"))]).toBe(
      block(remoteUid),
    );
  });

  it("keeps files manageable both ways: the panel edits what the server wrote and the server writes what the panel put", async () => {
    const id = "5c000001";
    const definition = echoDefinition({
      run: {
        command: `sh -c 'echo from-server > server-made.txt; echo ready; while read line; do [ "$line" = stop ] && exit 0; echo appended >> uploads/panel-made.txt && echo "wrote $line"; done'`,
        stop: "stop",
      },
    });
    expect((await api.put(`/api/servers/${id}`, { ...definition, node: remote().nodeId })).status).toBe(200);
    // The panel makes a folder and a file before the server runs.
    expect((await rawRequest(api, "PUT", `/api/servers/${id}/file/uploads?folder=true`)).status).toBeLessThan(
      300,
    );
    expect(
      (
        await rawRequest(api, "PUT", `/api/servers/${id}/file/uploads/panel-made.txt`, {
          body: "from-panel\n",
        })
      ).status,
    ).toBe(204);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("ready"), 10_000, 100);
    expect((await api.post(`/api/servers/${id}/console`, "go")).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("wrote "), 10_000, 100);
    const uploaded = await rawRequest(api, "GET", `/api/servers/${id}/file/uploads/panel-made.txt`);
    expect(uploaded.text).toBe("from-panel\nappended\n");
    // And the panel reads, rewrites and deletes what the server made.
    expect((await rawRequest(api, "GET", `/api/servers/${id}/file/server-made.txt`)).text).toBe(
      "from-server\n",
    );
    expect(
      (await rawRequest(api, "PUT", `/api/servers/${id}/file/server-made.txt`, { body: "edited" })).status,
    ).toBe(204);
    expect((await rawRequest(api, "DELETE", `/api/servers/${id}/file/server-made.txt`)).status).toBe(204);
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);

    // Over SFTP too: what the server wrote is read, replaced and removed; a folder of its own is made.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-sandbox-sftp-"));
    try {
      fs.writeFileSync(path.join(work, "put.txt"), "over sftp\n");
      const login = {
        port: remote().daemon.config.sftp.port,
        user: `${admin.email}#${id}`,
        password: admin.password,
      };
      const sftp = await runSftp(
        login,
        [
          "get uploads/panel-made.txt got.txt",
          "put put.txt uploads/panel-made.txt",
          "mkdir sftp-made",
          "rm uploads/panel-made.txt",
        ],
        { cwd: work },
      );
      expect(sftp.code, sftp.stderr).toBe(0);
      expect(fs.readFileSync(path.join(work, "got.txt"), "utf8")).toBe("from-panel\nappended\n");
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }

    // And backups: the server writes again, a backup takes it, a restore puts it back, and the server
    // (its own uid) can write into what the restore made.
    const again = definition.run.command.replace("uploads/panel-made.txt", "sftp-made/again.txt");
    const rerun = { ...definition, run: { ...definition.run, command: again } };
    expect((await api.put(`/api/servers/${id}/definition`, rerun)).status).toBe(204);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).split("ready").length > 2, 10_000, 100);
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    expect((await api.post(`/api/servers/${id}/backup/create?name=written`)).status).toBe(204);
    let backup: { id: number; state: string } | undefined;
    await waitUntil(async () => {
      backup = (await api.get(`/api/servers/${id}/backup`)).body.find(
        (b: { name: string }) => b.name === "written",
      );
      return backup?.state === "ready";
    }, 20_000);
    expect((await rawRequest(api, "DELETE", `/api/servers/${id}/file/server-made.txt`)).status).toBe(204);
    expect((await api.post(`/api/servers/${id}/backup/restore/${backup?.id}`)).status).toBe(204);
    await waitUntil(
      async () => (await rawRequest(api, "GET", `/api/servers/${id}/file/server-made.txt`)).status === 200,
      20_000,
    );
    expect((await rawRequest(api, "GET", `/api/servers/${id}/file/server-made.txt`)).text).toBe(
      "from-server\n",
    );
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).split("ready").length > 3, 10_000, 100);
    expect((await api.post(`/api/servers/${id}/console`, "go")).status).toBe(204);
    await waitUntil(
      async () =>
        (await rawRequest(api, "GET", `/api/servers/${id}/file/sftp-made/again.txt`)).text.includes(
          "appended",
        ),
      10_000,
      100,
    );
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
  });
});
