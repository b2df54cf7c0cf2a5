import { describe, expect, it } from "vitest";
import {
  containerResources,
  containerSpec,
  portBindings,
} from "../../../server/daemon/docker/container-spec.ts";
import { withTag } from "../../../server/daemon/docker/image-pull.ts";

describe("container spec", () => {
  it("reads the corpus's port bindings, with or without address and protocol", () => {
    expect(portBindings(["0.0.0.0:25565:25565/tcp", "27015:27016/udp", "7777"])).toEqual({
      ExposedPorts: { "25565/tcp": {}, "27016/udp": {}, "7777/tcp": {} },
      PortBindings: {
        "25565/tcp": [{ HostIp: "0.0.0.0", HostPort: "25565" }],
        "27016/udp": [{ HostIp: "", HostPort: "27015" }],
        "7777/tcp": [{ HostIp: "", HostPort: "7777" }],
      },
    });
  });

  it("turns limits into resources: MiB without swap, pids, percent of a core; none when absent", () => {
    expect(containerResources({ memoryMiB: 1024, pids: 256, cpuPercent: 150, diskMiB: 10 })).toEqual({
      Memory: 1024 ** 3,
      MemorySwap: 1024 ** 3,
      PidsLimit: 256,
      NanoCpus: 1_500_000_000,
    });
    expect(containerResources(undefined)).toEqual({});
  });

  it("gives swap beside the memory (or -1 for unlimited), the IO weight and the CPU threads to the engine", () => {
    expect(containerResources({ memoryMiB: 512, swapMiB: 256, ioWeight: 700, cpuThreads: "0,2" })).toEqual({
      Memory: 512 * 1024 ** 2,
      MemorySwap: 768 * 1024 ** 2,
      BlkioWeight: 700,
      CpusetCpus: "0,2",
    });
    expect(containerResources({ memoryMiB: 512, swapMiB: "unlimited" })).toEqual({
      Memory: 512 * 1024 ** 2,
      MemorySwap: -1,
    });
    expect(containerResources({ memoryMiB: 512, swapMiB: 0 }).MemorySwap).toBe(512 * 1024 ** 2);
  });

  it("never passes the definition's raw host config, bindings or config to the engine", () => {
    const spec = containerSpec({
      serverId: "abc",
      root: "/srv/abc",
      environment: {
        type: "docker",
        bindings: { "/": "/host" },
        hostConfig: { Privileged: true },
        config: { User: "0" },
      },
      image: "img",
      argv: ["java", "-jar", "server.jar"],
      env: { A: "1" },
    });
    expect(spec.HostConfig?.Binds).toEqual(["/srv/abc:/pufferpanel"]);
    expect(spec.HostConfig?.Privileged).toBeUndefined();
    expect(spec.User).toBeUndefined();
    expect(spec.Entrypoint).toEqual(["java"]);
    expect(spec.Cmd).toEqual(["-jar", "server.jar"]);
    expect(spec.WorkingDir).toBe("/pufferpanel");
    expect(spec.HostConfig?.NetworkMode).toBe("host");
  });

  it("adds the latest tag Docker assumes", () => {
    expect(withTag("node")).toBe("node:latest");
    expect(withTag("eclipse-temurin:21")).toBe("eclipse-temurin:21");
    expect(withTag("localhost:5000/img")).toBe("localhost:5000/img:latest");
  });
});
