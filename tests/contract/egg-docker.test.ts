import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importTemplate, type Template } from "../../server/templates/index.ts";
import { type DockerEngine, startDockerEngine, testImage } from "../support/docker-engine.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";

/**
 * An egg written for the tests around the image built offline (no registry here), on both
 * NodeClient implementations and a real Docker engine: its install script runs in a container
 * of its install image with the folder at /mnt/server, its config parser edits the file before
 * the start, the server counts as starting until its done line shows, and `^C` stops it with SIGINT.
 */
let engine: DockerEngine;
beforeAll(async () => {
  engine = await startDockerEngine();
}, 120_000);
afterAll(async () => {
  await engine?.close();
}, 60_000);

const testEgg = {
  meta: { version: "PTDL_v2" },
  name: "Busybox egg",
  docker_images: { Busybox: testImage },
  startup:
    'cat server.properties; sleep 2; echo "Server ready on {{SERVER_PORT}}"; trap "echo stopping on SIGINT; exit 0" INT; while true; do sleep 1; done',
  config: {
    files: JSON.stringify({
      "server.properties": {
        parser: "properties",
        find: { "server-port": "{{server.build.default.port}}", motd: "{{server.build.env.MOTD}}" },
      },
    }),
    startup: JSON.stringify({ done: "Server ready" }),
    logs: "{}",
    stop: "^C",
  },
  scripts: {
    installation: {
      container: testImage,
      entrypoint: "sh",
      script:
        "printf 'server-port=1\\nmotd=old\\nlevel=world\\n' > server.properties\necho \"$MOTD\" > /mnt/server/motd.txt\npwd > where.txt",
    },
  },
  file_denylist: ["server.properties", "*.jar"],
  variables: [
    {
      name: "Message of the day",
      description: "",
      env_variable: "MOTD",
      default_value: "Hello egg",
      user_viewable: true,
      user_editable: true,
      rules: "required|string|max:40",
    },
  ],
};

function converted(): Template {
  const result = importTemplate(testEgg);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.template;
}

for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`an egg on the docker environment: ${name}`, { timeout: 90_000 }, () => {
    let subject: NodeUnderTest;
    const id = name === "LocalNode" ? "e99e0001" : "e99e0002";
    const output = async () =>
      Buffer.from((await subject.client.servers.console(id, 0)).logs, "base64").toString();

    beforeAll(async () => {
      subject = await make({ dockerSocket: engine.socket });
    });
    afterAll(async () => {
      await subject?.client.servers.deleteServer(id).catch(() => {});
      await subject?.close();
    });

    it("installs in the egg's container, edits its config before the start, and stops on ^C", async () => {
      await subject.client.servers.createServer(id, converted());
      await subject.client.servers.action(id, "install", true);
      const folder = path.join(subject.dataDir, "servers", id);
      expect(fs.readFileSync(path.join(folder, "where.txt"), "utf8")).toBe("/mnt/server\n");
      expect(fs.readFileSync(path.join(folder, "motd.txt"), "utf8")).toBe("Hello egg\n");
      expect(fs.readFileSync(path.join(folder, "server.properties"), "utf8")).toBe(
        "server-port=1\nmotd=old\nlevel=world\n",
      );

      await subject.client.servers.action(id, "start", true);
      // Starting until the done line shows, then running.
      expect(await subject.client.servers.status(id)).toMatchObject({ running: true, starting: true });
      await waitUntil(async () => (await output()).includes("Server ready on 25565"), 30_000, 100);
      await waitUntil(async () => !(await subject.client.servers.status(id)).starting, 5_000, 50);
      expect(await subject.client.servers.status(id)).toEqual({
        running: true,
        installing: false,
        installed: true,
      });
      expect(fs.readFileSync(path.join(folder, "server.properties"), "utf8")).toBe(
        "server-port=25565\nmotd=Hello egg\nlevel=world\n",
      );
      expect(await output()).toContain("server-port=25565\nmotd=Hello egg\nlevel=world\n");

      await subject.client.servers.action(id, "stop", true);
      await waitUntil(async () => !(await subject.client.servers.status(id)).running, 20_000, 100);
      expect(await output()).toContain("stopping on SIGINT");
      expect(await output()).toContain("Server exited with code 0");
    });

    it("refuses to let the file manager change what the egg's file_denylist names", async () => {
      const files = subject.client.files;
      const denied = { status: 403, code: "ErrFileDenied" };
      await expect(files.write(id, "server.properties", Readable.from(["x"]))).rejects.toMatchObject(denied);
      await expect(files.remove(id, "/server.properties")).rejects.toMatchObject(denied);
      await expect(files.move(id, "motd.txt", "plugins/motd.jar")).rejects.toMatchObject(denied);
      await expect(files.makeFolder(id, "old.jar")).rejects.toMatchObject(denied);
      await files.write(id, "notes.txt", Readable.from(["fine"]));
      const folder = path.join(subject.dataDir, "servers", id);
      expect(fs.readFileSync(path.join(folder, "notes.txt"), "utf8")).toBe("fine");
      expect(fs.readFileSync(path.join(folder, "server.properties"), "utf8")).toMatch(/^server-port=25565/);
    });
  });
}
