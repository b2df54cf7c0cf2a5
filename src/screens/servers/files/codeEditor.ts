import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import {
  bracketMatching,
  HighlightStyle,
  indentOnInput,
  StreamLanguage,
  type StreamParser,
  syntaxHighlighting,
} from "@codemirror/language";
import { highlightSelectionMatches, openSearchPanel, search, searchKeymap } from "@codemirror/search";
import { EditorState, type Extension } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";

// The file manager's code editor (CodeMirror 6). This module and the grammars are fetched only
// when a file is opened; nothing of it is in the first load.

/** The grammar for a file name, loaded on demand; undefined for plain text. */
export async function languageFor(name: string): Promise<Extension | undefined> {
  const ext = name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? "";
  const legacy = (parser: StreamParser<unknown>) => StreamLanguage.define(parser);
  switch (ext) {
    case "json":
    case "json5":
    case "mcmeta":
      return (await import("@codemirror/lang-json")).json();
    case "yml":
    case "yaml":
      return (await import("@codemirror/lang-yaml")).yaml();
    case "properties":
    case "ini":
    case "cfg":
    case "conf":
    case "env":
      return legacy((await import("@codemirror/legacy-modes/mode/properties")).properties);
    case "toml":
      return legacy((await import("@codemirror/legacy-modes/mode/toml")).toml);
    case "xml":
    case "html":
    case "svg":
      return legacy((await import("@codemirror/legacy-modes/mode/xml")).xml);
    case "sh":
    case "bash":
      return legacy((await import("@codemirror/legacy-modes/mode/shell")).shell);
    case "lua":
      return legacy((await import("@codemirror/legacy-modes/mode/lua")).lua);
    default:
      return undefined;
  }
}

// Colours from the theme's variables, so light, dark and custom themes apply without a second set.
const theme = EditorView.theme({
  "&": { height: "100%", color: "var(--text)", backgroundColor: "var(--surface)" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "inherit", lineHeight: "inherit" },
  ".cm-content": { caretColor: "var(--text)", padding: "10px 0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": {
    backgroundColor: "color-mix(in srgb, var(--primary) 30%, transparent)",
  },
  ".cm-gutters": { backgroundColor: "var(--surface-2)", color: "var(--muted)", border: "none" },
  ".cm-lineNumbers .cm-gutterElement": { padding: "0 8px 0 10px" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--primary) 7%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--primary) 15%, transparent)" },
  ".cm-selectionMatch": { backgroundColor: "color-mix(in srgb, var(--primary) 18%, transparent)" },
  ".cm-searchMatch": { backgroundColor: "color-mix(in srgb, var(--primary) 25%, transparent)" },
  ".cm-searchMatch.cm-searchMatch-selected": {
    backgroundColor: "color-mix(in srgb, var(--primary) 50%, transparent)",
  },
  ".cm-panels": { backgroundColor: "var(--surface-2)", color: "var(--text)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--border)" },
  ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--border)" },
  ".cm-textfield": {
    color: "var(--text)",
    backgroundColor: "var(--surface)",
    border: "1px solid var(--border)",
    borderRadius: "4px",
  },
  ".cm-button": {
    color: "var(--text)",
    backgroundImage: "none",
    backgroundColor: "var(--surface)",
    border: "1px solid var(--border)",
    borderRadius: "4px",
  },
});

const highlight = HighlightStyle.define([
  { tag: [tags.comment, tags.meta], color: "var(--muted)", fontStyle: "italic" },
  {
    tag: [tags.propertyName, tags.attributeName, tags.definition(tags.propertyName)],
    color: "var(--code-key)",
  },
  { tag: [tags.string, tags.special(tags.string), tags.regexp, tags.quote], color: "var(--code-string)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--code-number)" },
  { tag: [tags.keyword, tags.operatorKeyword, tags.tagName, tags.heading], color: "var(--code-keyword)" },
  { tag: [tags.variableName, tags.labelName], color: "var(--code-variable)" },
  { tag: tags.invalid, color: "var(--error)" },
]);

export interface EditorOptions {
  parent: HTMLElement;
  text: string;
  readOnly: boolean;
  language: Extension | undefined;
  /** Attributes of the editable area (its label, a test id). */
  attributes: Record<string, string>;
  /** CodeMirror's own texts (search panel, screen reader notes), in the page's language. */
  phrases: Record<string, string>;
  onChange: (text: string) => void;
}

export interface CodeEditor {
  openSearch: () => void;
  focus: () => void;
  destroy: () => void;
}

export function createCodeEditor(o: EditorOptions): CodeEditor {
  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    // The search panel on top, where a phone's keyboard does not cover it.
    search({ top: true }),
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap]),
    syntaxHighlighting(highlight),
    theme,
    EditorState.phrases.of(o.phrases),
    // Read only still lets the text be selected, copied and searched.
    EditorState.readOnly.of(o.readOnly),
    EditorView.contentAttributes.of({
      ...o.attributes,
      "aria-multiline": "true",
      ...(o.readOnly ? { "aria-readonly": "true" } : {}),
      autocapitalize: "off",
      autocorrect: "off",
      spellcheck: "false",
    }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) o.onChange(u.state.doc.toString());
    }),
  ];
  if (o.language) extensions.push(o.language);
  const view = new EditorView({ parent: o.parent, state: EditorState.create({ doc: o.text, extensions }) });
  return {
    openSearch: () => openSearchPanel(view),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
