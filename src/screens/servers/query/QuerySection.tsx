import type { SectionProps } from "../sectionProps";

/** Player count (spec §2.3). */
export default function QuerySection(_props: SectionProps) {
  return null;
}
