import { describe, expect, it } from "vitest";
import {
  alternatives,
  checkRequirements,
  goPlatform,
  type RequirementsContext,
} from "../../../server/templates/index.ts";

const linux: RequirementsContext = {
  os: "linux",
  arch: "amd64",
  env: "host",
  tokens: { javaversion: 21 },
  findBinary: (name) => ["java21", "tar", "unzip"].includes(name),
};

const bodies = (requirements: Parameters<typeof checkRequirements>[0], ctx = linux) =>
  checkRequirements(requirements, ctx).map((error) => error.toBody().error);

describe("requirements", () => {
  it("passes when nothing is required or everything is there", () => {
    expect(bodies({})).toEqual([]);
    expect(bodies({ os: "linux", arch: "amd64", binaries: ["tar", "unzip"] })).toEqual([]);
  });

  it("accepts any of the || alternatives", () => {
    expect(alternatives(" linux ||windows|| ")).toEqual(["linux", "windows"]);
    expect(bodies({ os: "windows || linux", arch: "arm64||amd64", binaries: ["curl || tar"] })).toEqual([]);
  });

  it("refuses another OS or architecture with ErrUnsupportedOS / ErrUnsupportedArch", () => {
    expect(bodies({ os: "windows" })).toEqual([
      {
        code: "ErrUnsupportedOS",
        msg: "unsupported OS ${actual}, needs ${expected}",
        metadata: { actual: "linux", expected: "windows" },
      },
    ]);
    expect(bodies({ arch: "arm64 || 386" }, { ...linux, arch: "amd64" })).toEqual([
      {
        code: "ErrUnsupportedArch",
        msg: "unsupported architecture ${actual}, needs ${expected}",
        metadata: { actual: "amd64", expected: "arm64 OR 386" },
      },
    ]);
  });

  it("looks binaries up after substitution and names the missing ones", () => {
    expect(bodies({ binaries: ["java${javaversion} || java"] })).toEqual([]);
    expect(
      bodies(
        { binaries: ["unzip", "mono", "java${javaversion}", "node || nodejs"] },
        { ...linux, tokens: { javaversion: 8 } },
      ),
    ).toEqual([
      { code: "ErrMissingBinary", msg: "missing binary ${expected}", metadata: { expected: "mono" } },
      { code: "ErrMissingBinary", msg: "missing binary ${expected}", metadata: { expected: "java8" } },
      {
        code: "ErrMissingBinary",
        msg: "missing binary ${expected}",
        metadata: { expected: "node OR nodejs" },
      },
    ]);
  });

  it("does not check binaries for docker, where the image brings them", () => {
    expect(bodies({ binaries: ["mono"] }, { ...linux, env: "docker" })).toEqual([]);
  });

  it("reports every failure at once", () => {
    expect(bodies({ os: "windows", arch: "arm64", binaries: ["mono"] }).map((error) => error.code)).toEqual([
      "ErrUnsupportedOS",
      "ErrUnsupportedArch",
      "ErrMissingBinary",
    ]);
  });
});

describe("goPlatform", () => {
  it("maps Node names to Go names", () => {
    expect(goPlatform("linux", "x64")).toEqual({ os: "linux", arch: "amd64" });
    expect(goPlatform("win32", "arm64")).toEqual({ os: "windows", arch: "arm64" });
    expect(goPlatform("darwin", "ia32")).toEqual({ os: "darwin", arch: "386" });
  });
});
