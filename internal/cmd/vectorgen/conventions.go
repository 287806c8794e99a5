package main

// How an error names its field and offset: WIRE.md section 9 states the
// conventions, and every error verdict says which one its offset follows,
// so that an SDK whose offsets differ can tell which convention it reads
// otherwise.

// Convention is one of the ways an error's offset is chosen.
type Convention struct {
	ID      string `json:"id"`
	Section string `json:"section"`
	Text    string `json:"text"`
}

// conventionList is WIRE.md section 9's list, in its order, and the one
// convention of version text, which section 9 (about frames and bodies)
// does not state.
func conventionList() []Convention {
	nine := func(id, text string) Convention { return Convention{ID: id, Section: "9", Text: text} }
	return []Convention{
		nine("field", "a field that breaks a rule of its own: that field's name and its offset"),
		nine("start", "a field that does not fit in the input: the offset where it starts"),
		nine("header", "a header shorter than 256 bytes: field header, at the input's length"),
		nine("utf8", "a text that is not UTF-8: the offset of its first bad byte, not of the text"),
		nine("reserved", "a reserved or padding area: its first non-zero byte"),
		nine("window", "an eviction window: offset 144, whichever half is wrong"),
		nine("result_count", "a result section shorter than 4 bytes: field result_count at the section's offset 0 (256 in a frame)"),
		nine("result_entries", "a result section shorter than 4 + 8*count: field result_entries at the section's offset 4 (260 in a frame)"),
		nine("trailing", "bytes after the last field of a strict parse: the offset of the first one"),
		{ID: "text_position", Section: "1", Text: "version text (not stated by section 9): field version, at the start of the component out of range, or at the character where the grammar breaks"},
		nine("secret_utf8", "a password or a token that is not UTF-8: the offset of its first byte, not of its bad byte"),
	}
}

// conventionOf is the convention an error of sentinel on field follows.
func conventionOf(sentinel, field string) string {
	switch {
	case field == "version":
		return "text_position"
	case sentinel == "truncated" && field == "header":
		return "header"
	case sentinel == "truncated" && (field == "result_count" || field == "result_entries"):
		return field
	case sentinel == "truncated":
		return "start"
	case sentinel == "utf8" && (field == "password" || field == "token"):
		return "secret_utf8"
	case sentinel == "utf8", sentinel == "reserved", sentinel == "window", sentinel == "trailing":
		return sentinel
	}
	return "field"
}
