import { signal } from "@preact/signals-react";
import { DEFAULT_CONFIG, type PanelConfig } from "../api/config";

/** Panel configuration from /api/config (or the defaults when it failed). */
export const config = signal<PanelConfig>(DEFAULT_CONFIG);
