import type { NodeFeaturesAnswer } from "../../api/nodes";

/** The environments worth offering (reference §9.3): not tty/standard, docker only when it answers. */
export function usableEnvironments(f: NodeFeaturesAnswer): string[] {
  const docker = f.features.includes("docker");
  return f.environments.filter((e) => e !== "tty" && e !== "standard" && (e !== "docker" || docker));
}
