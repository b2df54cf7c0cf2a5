import type { SectionProps } from "../sectionProps";

/** File manager (spec §2.3). */
export default function FilesSection(_props: SectionProps) {
  return null;
}
