import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres-cluster.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** Starts one PostgreSQL cluster for the whole API-on-PostgreSQL project; each panel gets its own database. */
export default async function setup(project: TestProject) {
  const cluster = await startPostgres();
  project.provide("postgresUrl", cluster.url);
  return () => cluster.stop();
}
