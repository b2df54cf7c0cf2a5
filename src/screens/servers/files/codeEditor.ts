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
import {
  Annotation,
  Compartment,
  EditorState,
  type Extension,
  RangeSet,
  StateEffect,
  StateField,
} from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  GutterMarker,
  gutterLineClass,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";

// The app's code editor (CodeMirror 6): the file manager's and the template definition's. This
// module and the grammars are fetched only when an editor opens; nothing of it is in the first load.

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
  // Code in the monospace face; the panels keep the page's face (the host sets none).
  ".cm-scroller": {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    lineHeight: "inherit",
  },
  ".cm-content": { caretColor: "var(--text)", padding: "10px 0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": {
    backgroundColor: "color-mix(in srgb, var(--primary) 30%, transparent)",
  },
  ".cm-gutters": { backgroundColor: "var(--surface-2)", color: "var(--muted)", border: "none" },
  ".cm-lineNumbers .cm-gutterElement": { padding: "0 8px 0 10px" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--primary) 7%, transparent)" },
  ".cm-gutterElement.cm-marked-line": {
    backgroundColor: "color-mix(in srgb, var(--error) 22%, transparent)",
    color: "var(--error)",
    fontWeight: "700",
  },
  ".cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--primary) 15%, transparent)" },
  ".cm-selectionMatch": { backgroundColor: "color-mix(in srgb, var(--primary) 18%, transparent)" },
  ".cm-searchMatch": { backgroundColor: "color-mix(in srgb, var(--primary) 25%, transparent)" },
  ".cm-searchMatch.cm-searchMatch-selected": {
    backgroundColor: "color-mix(in srgb, var(--primary) 50%, transparent)",
  },
  ".cm-panels": {
    backgroundColor: "var(--surface-2)",
    color: "var(--text)",
    fontSize: "1rem",
    lineHeight: "1.5",
  },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--border)" },
  ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--border)" },
  // The search panel in the app's controls: fields and buttons of the app's height (touch-sized on a
  // phone), its colours and radius, checkboxes with their label, wrapping to the panel's width.
  ".cm-panel.cm-search": {
    display: "flex",
    flexWrap: "wrap",
    alignItems: "center",
    gap: "6px 8px",
    padding: "8px",
    paddingInlineEnd: "48px",
  },
  ".cm-panel.cm-search br": { display: "none" },
  ".cm-panel.cm-search input, .cm-panel.cm-search button, .cm-panel.cm-search label": { margin: "0" },
  ".cm-textfield": {
    flex: "1 1 14em",
    minWidth: "0",
    height: "40px",
    padding: "0 10px",
    color: "var(--text)",
    backgroundColor: "var(--surface)",
    border: "1px solid var(--border)",
    borderRadius: "var(--radius)",
    // 16 px: a phone does not zoom into the field.
    fontSize: "1rem",
    fontFamily: "inherit",
  },
  ".cm-textfield:focus": {
    outline: "none",
    borderColor: "var(--primary)",
    boxShadow: "0 0 0 1px var(--primary)",
  },
  ".cm-button": {
    minHeight: "40px",
    padding: "0 14px",
    color: "var(--text)",
    backgroundImage: "none",
    backgroundColor: "var(--surface)",
    border: "1px solid var(--border)",
    borderRadius: "var(--radius)",
    fontSize: "0.9rem",
    fontWeight: "600",
    fontFamily: "inherit",
    cursor: "pointer",
  },
  ".cm-button:hover": { backgroundColor: "var(--hover)" },
  ".cm-button:active": { backgroundImage: "none", backgroundColor: "var(--hover)" },
  ".cm-panel.cm-search label": {
    display: "inline-flex",
    alignItems: "center",
    gap: "6px",
    minHeight: "40px",
    paddingInlineEnd: "4px",
    fontSize: "0.875rem",
    whiteSpace: "nowrap",
    cursor: "pointer",
  },
  ".cm-panel.cm-search input[type=checkbox]": {
    width: "18px",
    height: "18px",
    margin: "0",
    accentColor: "var(--primary)",
  },
  ".cm-panel.cm-search [name=close]": {
    position: "absolute",
    top: "8px",
    right: "auto",
    insetInlineEnd: "6px",
    width: "36px",
    height: "36px",
    borderRadius: "50%",
    color: "var(--muted)",
    fontSize: "1.5rem",
    lineHeight: "1",
    cursor: "pointer",
  },
  ".cm-panel.cm-search [name=close]:hover": { backgroundColor: "var(--hover)", color: "var(--text)" },
  // Code reads left to right on every page; the panel's words follow the page's direction.
  "html[dir=rtl] & .cm-panels": { direction: "rtl" },
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
  /** Replaces the text when it changed outside the editor (a form beside it); the same text is a no-op. */
  setText: (text: string) => void;
  /** Selects `from..to`, scrolls it into view and focuses the editor. */
  reveal: (from: number, to: number) => void;
  /** Marks these 1-based lines in the gutter (lines with a problem). */
  markLines: (lines: ReadonlySet<number>) => void;
  /** Replaces the editable area's attributes (aria-invalid, aria-describedby …). */
  setAttributes: (attributes: Record<string, string>) => void;
}

/**
 * Marks the text put in by setText. Such a change is not the user's and is not reported through
 * onChange: echoed back, an older text that the editor was still catching up on (a form field
 * typed into faster than a frame) replaced the newer one, which put the newer one back, and so
 * on: keys were lost and the page could spin without end.
 */
const fromOutside = Annotation.define<true>();

const markedLine = new (class extends GutterMarker {
  override elementClass = "cm-marked-line";
})();
const setMarked = StateEffect.define<readonly number[]>();
/** Gutter marks for the lines given by markLines, kept in place as the text changes. */
const marked = StateField.define<RangeSet<GutterMarker>>({
  create: () => RangeSet.empty,
  update(marks, tr) {
    let next = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setMarked)) continue;
      const doc = tr.state.doc;
      const starts = effect.value.filter((n) => n >= 1 && n <= doc.lines).map((n) => doc.line(n).from);
      next = RangeSet.of(
        [...new Set(starts)].sort((a, b) => a - b).map((from) => markedLine.range(from)),
        true,
      );
    }
    return next;
  },
  provide: (field) => gutterLineClass.from(field),
});

export function createCodeEditor(o: EditorOptions): CodeEditor {
  const attributes = new Compartment();
  const contentAttributes = (own: Record<string, string>) =>
    EditorView.contentAttributes.of({
      ...own,
      "aria-multiline": "true",
      ...(o.readOnly ? { "aria-readonly": "true" } : {}),
      autocapitalize: "off",
      autocorrect: "off",
      spellcheck: "false",
    });
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
    attributes.of(contentAttributes(o.attributes)),
    marked,
    EditorView.updateListener.of((u) => {
      if (u.docChanged && !u.transactions.every((tr) => tr.annotation(fromOutside))) {
        o.onChange(u.state.doc.toString());
      }
    }),
  ];
  if (o.language) extensions.push(o.language);
  const view = new EditorView({ parent: o.parent, state: EditorState.create({ doc: o.text, extensions }) });
  return {
    openSearch: () => openSearchPanel(view),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
    setText: (text) => {
      const now = view.state.doc.toString();
      if (text !== now) {
        view.dispatch({
          changes: { from: 0, to: now.length, insert: text },
          annotations: fromOutside.of(true),
        });
      }
    },
    reveal: (from, to) => {
      const end = view.state.doc.length;
      view.dispatch({
        selection: { anchor: Math.min(from, end), head: Math.min(to, end) },
        scrollIntoView: true,
      });
      view.focus();
    },
    markLines: (lines) => view.dispatch({ effects: setMarked.of([...lines]) }),
    setAttributes: (own) => view.dispatch({ effects: attributes.reconfigure(contentAttributes(own)) }),
  };
}
