import { describe, expect, it } from "vitest";
import { readConfig } from "../../../server/config.ts";
import { type DaemonConfig, daemonSettings } from "../../../server/daemon/config.ts";
import { nodeSettings } from "../../../server/shared-settings.ts";

const daemonFile: DaemonConfig = {
  nodeId: 1,
  secret: "s".repeat(32),
  panelUrl: "http://127.0.0.1:8080",
  listen: { host: "127.0.0.1", port: 5656 },
  sftp: { host: "127.0.0.1", port: 5657 },
  dataDir: "/srv/outpost",
};

describe("settings the panel's local node and outpost daemon share", () => {
  it("leaves unset or unusable values to the defaults of the modules that use them", () => {
    for (const value of [undefined, "", "0", "-3", "often"]) {
      expect(
        nodeSettings({
          OUTPOST_STATS_SAMPLE_SECONDS: value,
          OUTPOST_DISK_CHECK_SECONDS: value,
          OUTPOST_EXTRACT_MAX_RATIO: value,
        }),
      ).toEqual({ allowUnsandboxed: false, allowUnlimitedSwap: false, allowOpenLoopback: false });
    }
  });

  it("reads seconds as milliseconds (samples 1 s at least), the ratio, the opt-in and a unix DOCKER_HOST", () => {
    expect(
      nodeSettings({
        OUTPOST_STATS_SAMPLE_SECONDS: "0.2",
        OUTPOST_DISK_CHECK_SECONDS: "0.2",
        OUTPOST_EXTRACT_MAX_RATIO: "50",
        OUTPOST_UNSANDBOXED: "allow",
        OUTPOST_ALLOW_UNLIMITED_SWAP: "1",
        OUTPOST_LOOPBACK_OPEN: "allow",
        DOCKER_HOST: "unix:///run/user/1000/docker.sock",
      }),
    ).toEqual({
      statsSampleMs: 1000,
      diskCheckMs: 200,
      extractMaxRatio: 50,
      allowUnsandboxed: true,
      allowUnlimitedSwap: true,
      allowOpenLoopback: true,
      dockerHostSocket: "/run/user/1000/docker.sock",
    });
    expect(nodeSettings({ DOCKER_HOST: "tcp://10.0.0.2:2375" }).dockerHostSocket).toBeUndefined();
    expect(() => nodeSettings({ OUTPOST_UNSANDBOXED: "yes" })).toThrow(/must be "allow"/);
    expect(nodeSettings({ OUTPOST_ALLOW_UNLIMITED_SWAP: "0" }).allowUnlimitedSwap).toBe(false);
    expect(() => nodeSettings({ OUTPOST_ALLOW_UNLIMITED_SWAP: "yes" })).toThrow(/must be 1 or unset/);
    expect(() => nodeSettings({ OUTPOST_LOOPBACK_OPEN: "1" })).toThrow(/must be "allow"/);
  });

  it("hands the panel's local node what its environment says; OUTPOST_DOCKER_SOCKET beats DOCKER_HOST", () => {
    const config = readConfig(
      {
        OUTPOST_STATS_SAMPLE_SECONDS: "5",
        OUTPOST_TRUST_PROXY: "true",
        OUTPOST_LOG_FORMAT: "json",
        DOCKER_HOST: "unix:///a.sock",
      },
      true,
    );
    expect(config.node.statsSampleMs).toBe(5000);
    expect(config.dockerSocket).toBe("/a.sock");
    expect(config.trustProxy).toBe("loopback,linklocal,uniquelocal");
    expect(config.log).toEqual({ level: "info", format: "json", colour: true });
    expect(readConfig({ OUTPOST_DOCKER_SOCKET: "/b.sock", DOCKER_HOST: "unix:///a.sock" }).dockerSocket).toBe(
      "/b.sock",
    );
  });

  it("lets a daemon's config file win over its environment", () => {
    const env = {
      OUTPOST_STATS_SAMPLE_SECONDS: "5",
      OUTPOST_DISK_CHECK_SECONDS: "7",
      DOCKER_HOST: "unix:///a.sock",
      OUTPOST_LOG_LEVEL: "warn",
      NO_COLOR: "1",
    };
    expect(daemonSettings(daemonFile, env, false)).toEqual({
      log: { level: "warn", format: "json", colour: false },
      engine: {
        dockerSocket: "/a.sock",
        allowUnsandboxed: false,
        allowUnlimitedSwap: false,
        allowOpenLoopback: false,
        statsSampleMs: 5000,
        diskCheckMs: 7000,
        extractMaxRatio: undefined,
      },
    });
    const file = {
      ...daemonFile,
      statsSampleSeconds: 2,
      dockerSocket: "/b.sock",
      unsandboxed: "allow" as const,
      allowUnlimitedSwap: true,
    };
    expect(daemonSettings(file, env, false).engine).toMatchObject({
      statsSampleMs: 2000,
      dockerSocket: "/b.sock",
      allowUnsandboxed: true,
      allowUnlimitedSwap: true,
    });
    // The environment's opt-in, and the file's "no" over it.
    const swapEnv = { ...env, OUTPOST_ALLOW_UNLIMITED_SWAP: "1" };
    expect(daemonSettings(daemonFile, swapEnv, false).engine.allowUnlimitedSwap).toBe(true);
    expect(
      daemonSettings({ ...daemonFile, allowUnlimitedSwap: false }, swapEnv, false).engine.allowUnlimitedSwap,
    ).toBe(false);
  });
});
