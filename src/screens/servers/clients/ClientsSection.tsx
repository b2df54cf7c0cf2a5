import type { SectionProps } from "../sectionProps";

/** OAuth clients of this server (spec §2.3). */
export default function ClientsSection(_props: SectionProps) {
  return null;
}
