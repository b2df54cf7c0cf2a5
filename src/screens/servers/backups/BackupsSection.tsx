import type { SectionProps } from "../sectionProps";

/** Backups (spec §2.3). */
export default function BackupsSection(_props: SectionProps) {
  return null;
}
