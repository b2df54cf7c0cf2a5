import { assignDefined, readObject, readString, readStringList, readStringMap } from "./fields.ts";
import { childPath, type Problems } from "./problems.ts";
import type { DockerEnvironment, Environment, EnvironmentType, Template } from "./types.ts";

/** `standard` and `tty` are the v2 names of `host`; the v3 loader rewrites them (reference §5.1). */
export function environmentTypeOf(type: unknown): EnvironmentType | undefined {
  if (type === "host" || type === "standard" || type === "tty") return "host";
  if (type === "docker") return "docker";
  return undefined;
}

export function parseEnvironment(raw: unknown, path: string, problems: Problems): Environment | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const type = environmentTypeOf(object.type);
  if (!type) {
    problems.push({
      path: childPath(path, "type"),
      problem: `unknown environment type ${JSON.stringify(object.type)} (host or docker)`,
    });
    return undefined;
  }
  if (type === "host") return { type };
  const at = (key: string) => childPath(path, key);
  return assignDefined<DockerEnvironment>(
    { type },
    {
      image: readString(object.image, at("image"), problems),
      portBindings: readStringList(object.portBindings, at("portBindings"), problems),
      networkName: readString(object.networkName, at("networkName"), problems),
      bindings: readStringMap(object.bindings, at("bindings"), problems),
      containerRoot: readString(object.containerRoot, at("containerRoot"), problems),
      labels: readStringMap(object.labels, at("labels"), problems),
      config: readObject(object.config, at("config"), problems),
      hostConfig: readObject(object.hostConfig, at("hostConfig"), problems),
    },
  );
}

/** The environments a new server may pick; a template without a list offers its default one. */
export function environmentsOf(
  template: Pick<Template, "environment" | "supportedEnvironments">,
): Environment[] {
  return template.supportedEnvironments?.length ? template.supportedEnvironments : [template.environment];
}
