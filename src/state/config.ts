import { signal } from "@preact/signals-react";
import { DEFAULT_CONFIG, type PanelConfigAnswer } from "../api/config";

/** Panel configuration from /api/config (or the defaults when it failed). */
export const config = signal<PanelConfigAnswer>(DEFAULT_CONFIG);
