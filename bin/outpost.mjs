#!/usr/bin/env node
// The `outpost` command. The server is TypeScript run through tsx's loader,
// so there is no separate server build step.
import { register } from "tsx/esm/api";

register();
await import("../server/main.ts");
