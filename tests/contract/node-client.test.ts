import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SocketMessage } from "../../server/contract/node/server-wire.ts";
import { dockerAnswers } from "../../server/daemon/docker-probe.ts";
import { productVersion } from "../../server/version.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { type RconListener, rconListener } from "../support/fake-game.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";

/**
 * One contract, two implementations: every NodeClient test runs against the
 * in-process LocalNode and against a RemoteNode talking to a real daemon.
 */
for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`NodeClient contract: ${name}`, () => {
    let subject: NodeUnderTest;
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

    describe("servers", () => {
      const id = "c0ffee01";
      const output = async () =>
        Buffer.from((await subject.client.servers.console(id, 0)).logs, "base64").toString();

      it("creates a server from a definition and refuses a second with the same id", async () => {
        await subject.client.servers.createServer(id, echoDefinition());
        await expect(subject.client.servers.createServer(id, echoDefinition())).rejects.toMatchObject({
          code: "ErrServerAlreadyExists",
        });
        expect((await subject.client.servers.definition(id)).display).toBe("Echo server");
        expect(await subject.client.servers.status(id)).toEqual({
          running: false,
          installing: false,
          installed: true,
        });
      });

      it("refuses definitions this node cannot run", async () => {
        await expect(
          subject.client.servers.createServer(
            "bad00001",
            echoDefinition({ requirements: { binaries: ["no-such-program-x"] } }),
          ),
        ).rejects.toMatchObject({ code: "ErrMissingBinary" });
        await expect(
          subject.client.servers.createServer(
            "bad00002",
            echoDefinition({ requirements: { os: "windows" } }),
          ),
        ).rejects.toMatchObject({ code: "ErrUnsupportedOS" });
        await expect(subject.client.servers.createServer("bad00003", { run: 5 })).rejects.toMatchObject({
          code: "ErrTemplateInvalid",
        });
        await expect(subject.client.servers.definition("bad00001")).rejects.toMatchObject({
          code: "ErrServerNotFound",
        });
      });

      it("answers the server's and the node's resource history", async () => {
        expect(await subject.client.history.serverHistory(id, "1h")).toEqual({
          range: "1h",
          step: expect.any(Number),
          points: expect.any(Array),
        });
        const node = await subject.client.history.nodeHistory("24h");
        expect(node).toMatchObject({ range: "24h", points: expect.any(Array) });
        expect(node.totals.cpus).toBeGreaterThan(0);
        expect(node.totals.disk).toBeGreaterThan(0);
        expect(node.servers[id]).toMatchObject({ range: "24h", points: expect.any(Array) });
        await expect(subject.client.history.serverHistory("bad00001", "7d")).rejects.toMatchObject({
          code: "ErrServerNotFound",
        });
      });

      it("runs it: console output, a command and its answer over the socket, stop by its stop text", async () => {
        const messages: SocketMessage[] = [];
        const end = await subject.client.servers.subscribe(
          id,
          ["console", "status"],
          (m) => messages.push(m),
          () => {},
        );
        await subject.client.servers.action(id, "start", true);
        await waitUntil(async () => (await output()).includes("ready hello on 25565"), 10_000, 50);
        await subject.client.servers.sendConsole(id, "ping");
        const socketText = () =>
          messages
            .filter((m) => m.type === "console")
            .map((m) => Buffer.from((m.data as { logs: string }).logs, "base64").toString())
            .join("");
        await waitUntil(async () => socketText().includes("pong ping"), 10_000, 50);
        expect((await subject.client.servers.status(id)).running).toBe(true);
        const stats = await subject.client.servers.stats(id);
        expect(stats.memory).toBeGreaterThan(0);
        await subject.client.servers.action(id, "stop", true);
        expect(await subject.client.servers.status(id)).toEqual({
          running: false,
          installing: false,
          installed: true,
        });
        expect(await output()).toContain("bye");
        await waitUntil(
          async () => messages.some((m) => m.type === "status" && !(m.data as { running: boolean }).running),
          5000,
          50,
        );
        expect(messages.some((m) => m.type === "status" && (m.data as { running: boolean }).running)).toBe(
          true,
        );
        end();
        await expect(subject.client.servers.sendConsole(id, "ping")).rejects.toMatchObject({
          code: "ErrServerOffline",
        });
      });

      it("reads and changes flags and variables; users may change only user-editable ones", async () => {
        expect(await subject.client.servers.flags(id)).toEqual({
          autoStart: false,
          autoRestartOnCrash: false,
          autoRestartOnGraceful: false,
        });
        await subject.client.servers.setFlags(id, { autoRestartOnCrash: true });
        expect((await subject.client.servers.flags(id)).autoRestartOnCrash).toBe(true);
        expect((await subject.client.servers.definition(id)).run.autorecover).toBe(true);

        const userView = await subject.client.servers.serverData(id, false);
        expect(Object.keys(userView.data)).toEqual(["motd"]);
        expect(Object.keys((await subject.client.servers.serverData(id, true)).data).sort()).toEqual([
          "motd",
          "port",
          "secret",
        ]);
        await subject.client.servers.setServerData(id, { motd: "changed" }, true);
        await expect(subject.client.servers.setServerData(id, { secret: "x" }, true)).rejects.toMatchObject({
          code: "ErrVariableNotEditable",
        });
        await subject.client.servers.setServerData(id, { secret: "admin-set" }, false);
        const data = (await subject.client.servers.serverData(id, true)).data;
        expect(data.motd.value).toBe("changed");
        expect(data.secret.value).toBe("admin-set");
      });

      it("deletes the server with its files", async () => {
        await subject.client.servers.deleteServer(id);
        await expect(subject.client.servers.status(id)).rejects.toMatchObject({ code: "ErrServerNotFound" });
      });
    });

    describe("rcon", () => {
      const id = "c0ffee02";
      let listener: RconListener;
      beforeAll(async () => {
        listener = await rconListener("pw-from-variables");
      });
      afterAll(async () => {
        await subject.client.servers.deleteServer(id).catch(() => {});
        await listener?.close();
      });

      it("sends a command to the running game with the password from its variables, one line only", async () => {
        const echo = echoDefinition();
        const definition = echoDefinition({
          data: {
            ...echo.data,
            rconport: { type: "integer", value: listener.port, display: "RCON port" },
            rconpassword: { type: "string", value: "pw-from-variables", display: "RCON password" },
          },
          players: {
            kick: "kick ${player}",
            via: "rcon",
            rcon: { port: "${rconport}", password: "${rconpassword}" },
          },
        });
        await subject.client.servers.createServer(id, definition);
        await expect(subject.client.rcon.send(id, "list")).rejects.toMatchObject({
          code: "ErrServerOffline",
        });
        await subject.client.servers.action(id, "start", true);
        expect(await subject.client.rcon.send(id, "kick Steve")).toBe("ran: kick Steve");
        expect(listener.passwords).toEqual(["pw-from-variables"]);
        await expect(subject.client.rcon.send(id, "list\nop me")).rejects.toMatchObject({
          code: "ErrFieldInvalid",
        });
        expect(listener.commands).toEqual(["kick Steve"]);
        await subject.client.servers.action(id, "kill", true);
      });
    });
  });
}
