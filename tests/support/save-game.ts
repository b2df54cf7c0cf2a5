import { echoDefinition } from "./echo-template.ts";

/**
 * A small game-like server for backup tests: it keeps its "world" in memory
 * (`set <value>` changes it) and writes it to `level.dat` only when told
 * `save-all` (answering "Saved the game", as Minecraft does); `save-off` and
 * `save-on` are acknowledged like Minecraft's. So a backup of it holds what was
 * last saved: only hooks that save first catch the newest world.
 */
export function saveGameDefinition(backup?: Record<string, unknown>) {
  const script =
    'echo "world loaded"; level=empty; while read line; do case $line in ' +
    "stop) echo bye; exit 0;; " +
    'set*) level=$line; echo "level changed";; ' +
    'save-off) echo "Automatic saving is now disabled";; ' +
    'save-on) echo "Automatic saving is now enabled";; ' +
    'save-all*) echo "$level" > level.dat; echo "[Server thread/INFO]: Saved the game";; ' +
    '*) echo "unknown command";; ' +
    "esac; done";
  return echoDefinition({
    type: "save-game",
    display: "Save game",
    run: { command: `sh -c '${script}'`, stop: "stop" },
    ...(backup ? { backup } : {}),
  });
}

/** Minecraft's own hooks, as the starter template declares them. */
export const minecraftHooks = {
  before: ["save-off", "save-all flush"],
  after: ["save-on"],
  waitFor: "Saved the game",
  timeout: 60,
};
