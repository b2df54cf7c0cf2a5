// The Lingui macros only exist at compile time (a Babel pass the unit project does not run).
// Tests that load modules using `msg` swap in this stand-in, which builds the same descriptor
// shape the macro would: { id, message }.
type Descriptor = { id: string; message?: string };

function toDescriptor(input: TemplateStringsArray | Descriptor, ...values: unknown[]): Descriptor {
  if (Array.isArray(input)) {
    const message = String.raw({ raw: input as readonly string[] }, ...values.map((_, i) => `{${i}}`));
    return { id: message, message };
  }
  const d = input as Descriptor;
  return { id: d.id ?? d.message ?? "", message: d.message };
}

export const msg = toDescriptor;
export const defineMessage = toDescriptor;
export const t = (input: TemplateStringsArray | Descriptor, ...values: unknown[]) =>
  toDescriptor(input, ...values).message ?? "";
