import { nodeMessage } from "./nodeMessages";

/** A node line (without its prefix) in the page's language when this client knows it; foreign words quoted. */
export function NodeLine({ text }: { text: string }) {
  const shown = nodeMessage(text);
  if (!shown) return <>{text}</>;
  return (
    <>
      {shown.map((part, i) =>
        typeof part === "string" ? (
          part
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence, never reordered
          <q key={i} dir="auto">
            {part.quoted}
          </q>
        ),
      )}
    </>
  );
}
