package codec

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// wireRow is one parsed row of a WIRE.md table.
type wireRow struct {
	name, text string
	off, size  int
}

// wireTables parses section 5 of testdata/WIRE.md: the first table is the
// prologue (key ""), then one table under each "### Kind" heading.
func wireTables(t *testing.T) map[string][]wireRow {
	t.Helper()
	f, err := os.Open("../docs/WIRE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables := map[string][]wireRow{}
	in5, kind := false, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in5 = strings.HasPrefix(line, "## 5.")
			continue
		case !in5:
			continue
		case strings.HasPrefix(line, "### "):
			kind = strings.Fields(line)[1]
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) != 5 || cells[0] != "" || cells[4] != "" {
			continue // not a three-column table row
		}
		off, err1 := strconv.Atoi(strings.TrimSpace(cells[1]))
		size, err2 := strconv.Atoi(strings.TrimSpace(cells[2]))
		if err1 != nil || err2 != nil {
			continue // the header or separator line
		}
		text := strings.TrimSpace(cells[3])
		name := strings.TrimSpace(text[:len(text)-len(strings.TrimLeft(text, "abcdefghijklmnopqrstuvwxyz_ "))])
		tables[kind] = append(tables[kind], wireRow{name, text, off, size})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return tables
}

// layoutConsts returns every off*/size* constant declared in layout.go with
// the value of its literal.
func layoutConsts(t *testing.T) map[string]int {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "layout.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]int{}
	ast.Inspect(file, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, id := range spec.Names {
			if !strings.HasPrefix(id.Name, "off") && !strings.HasPrefix(id.Name, "size") {
				continue
			}
			lit, ok := spec.Values[i].(*ast.BasicLit)
			if !ok {
				t.Fatalf("%s is not a plain literal", id.Name)
			}
			v, err := strconv.Atoi(lit.Value)
			if err != nil {
				t.Fatalf("%s = %s: %v", id.Name, lit.Value, err)
			}
			consts[id.Name] = v
		}
		return true
	})
	return consts
}

// wireNames maps the WIRE.md names that differ from the table's, which are
// the names errors use.
var wireNames = map[string]string{"client id": "client", "request number": "request"}

// tableName is the headerLayout name of a WIRE.md row.
func tableName(r wireRow) string {
	if n, ok := wireNames[r.name]; ok {
		return n
	}
	return strings.ReplaceAll(r.name, " ", "_")
}

// kindWidth is the size every kind but kindUint and kindBytes must have.
var kindWidth = map[fieldKind]int{kindCommand: 1, kindOperation: 1, kindReason: 1,
	kindStatus: 4, kindCode: 4, kindVersion: 4}

// wireKind is the kind WIRE.md gives a field by its name: the enums of
// section 6 and the packed versions of section 1 by name, reserved areas as
// bytes, every other field as an integer.
func wireKind(name string, reserved bool) fieldKind {
	named := map[string]fieldKind{"command": kindCommand, "operation": kindOperation,
		"status": kindStatus, "reason": kindReason}
	switch k, ok := named[name]; {
	case ok:
		return k
	case reserved:
		return kindBytes
	case strings.Contains(name, "protocol_version"):
		return kindVersion
	}
	return kindUint
}

// TestLayoutMatchesWire checks the exported header tables, and through them
// the off*/size* constants they are built on, against the header tables of
// WIRE.md section 5: each kind's fields are WIRE.md's rows (prologue then kind
// part) with their offsets and sizes, in order, tiling bytes 0..256 with no
// gap and no overlap; a field is reserved exactly when WIRE.md says reserved
// or zero; each has the kind its name gives and that kind's size; and every constant of layout.go is used
// by the tables.
func TestLayoutMatchesWire(t *testing.T) {
	tables := wireTables(t)
	if len(tables) != 4 {
		t.Fatalf("WIRE.md section 5: %d tables, want the prologue and 3 kind tables", len(tables))
	}
	for _, c := range []Command{CommandRequest, CommandReply, CommandEviction} {
		t.Run(c.String(), func(t *testing.T) {
			rows := append(append([]wireRow{}, tables[""]...), tables[c.String()]...)
			fields := headerLayout(c)
			if len(fields) != len(rows) {
				t.Fatalf("headerLayout(%v) has %d fields, want WIRE.md's %d rows", c, len(fields), len(rows))
			}
			end := 0
			for i, f := range fields {
				r := rows[i]
				if want := tableName(r); f.Name != want {
					t.Errorf("row %d: name %q, want %q", i, f.Name, want)
				}
				if got, want := [2]int{f.Offset, f.Size}, [2]int{r.off, r.size}; got != want {
					t.Errorf("%s: offset and size %v, want %v", f.Name, got, want)
				}
				reserved := strings.HasPrefix(r.name, "reserved") || strings.Contains(r.text, "(zero)")
				if f.Reserved != reserved {
					t.Errorf("%s: WIRE.md says %q: Reserved = %v, want %v", f.Name, r.text, f.Reserved, reserved)
				}
				if want := wireKind(f.Name, reserved); f.Kind != want {
					t.Errorf("%s: kind %v, want %v", f.Name, f.Kind, want)
				}
				if w, ok := kindWidth[f.Kind]; ok {
					if f.Size != w {
						t.Errorf("%s: a %s is %d bytes, got %d", f.Name, f.Kind, w, f.Size)
					}
				} else if f.Kind == kindUint {
					if widths := []int{1, 4, 8, 16}; !slices.Contains(widths, f.Size) {
						t.Errorf("%s: uint width %d, want one of %v", f.Name, f.Size, widths)
					}
				}
				if f.Offset != end {
					t.Errorf("%s: gap or overlap: offset %d, want %d", f.Name, f.Offset, end)
				}
				end = f.End()
				if i == len(tables[""]) && f.Offset != offKind {
					t.Errorf("the kind part starts at offKind: offset %d, want %d", f.Offset, offKind)
				}
			}
			if end != HeaderSize {
				t.Errorf("the layout ends at the header size: end %d, want %d", end, HeaderSize)
			}
		})
	}

	// The NonReplicated code lives inside the Request's reserved range, at
	// the bytes the reserved row names.
	t.Run("code", func(t *testing.T) {
		var reserved wireRow
		for _, r := range tables["Request"] {
			if r.name == "reserved" {
				reserved = r
			}
		}
		m := regexp.MustCompile(`\((\d+)\.\.(\d+)\) hold the command code u32`).FindStringSubmatch(reserved.text)
		if m == nil {
			t.Fatalf("Request reserved row does not name the code bytes: %q", reserved.text)
		}
		code := requestCodeField()
		if got, want := strconv.Itoa(code.Offset)+".."+strconv.Itoa(code.End()), m[1]+".."+m[2]; got != want {
			t.Errorf("code bytes %s, want WIRE.md's %s", got, want)
		}
		if code.Offset != reserved.off {
			t.Errorf("the code starts the reserved area: offset %d, want %d", code.Offset, reserved.off)
		}
		if want := (headerField{"code", code.Offset, 4, kindCode, false}); code != want {
			t.Errorf("requestCodeField() = %+v, want %+v", code, want)
		}
	})

	// Nothing in layout.go escapes the checks above: every off*/size*
	// constant is used by the tables of headerlayout.go.
	t.Run("every constant", func(t *testing.T) {
		used := identsIn(t, "headerlayout_test.go")
		for name := range layoutConsts(t) {
			if name != "offKind" && !used[name] {
				t.Errorf("layout.go declares %s, which no header table uses", name)
			}
		}
	})
}

// identsIn returns every identifier file refers to.
func identsIn(t *testing.T, file string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	return used
}

// TestHeaderLayoutCopies checks that headerLayout hands out copies, so that
// no caller can change what the next one reads, and has no layout for a
// command that does not face clients.
func TestHeaderLayoutCopies(t *testing.T) {
	first := headerLayout(CommandReply)
	first[0].Name, first[0].Offset = "changed", 99
	again := headerLayout(CommandReply)
	if again[0].Name != "checksum" {
		t.Errorf("headerLayout(CommandReply)[0].Name = %q after a caller changed its copy, want %q", again[0].Name, "checksum")
	}
	if again[0].Offset != 0 {
		t.Errorf("headerLayout(CommandReply)[0].Offset = %d after a caller changed its copy, want 0", again[0].Offset)
	}
	for _, c := range []Command{CommandReserved, Command(48)} {
		if got := headerLayout(c); got != nil {
			t.Errorf("headerLayout(%d) = %+v, want nil", c, got)
		}
	}
}

// TestFieldKindString checks the names, and that an unknown kind says so.
func TestFieldKindString(t *testing.T) {
	for _, c := range []struct {
		k    fieldKind
		want string
	}{{kindUint, "uint"}, {kindBytes, "bytes"}, {fieldKind(0), "UNKNOWN_FIELD_KIND_0"}, {fieldKind(9), "UNKNOWN_FIELD_KIND_9"}} {
		if got := c.k.String(); got != c.want {
			t.Errorf("fieldKind(%d).String() = %q, want %q", c.k, got, c.want)
		}
	}
}

// TestReservedError puts one non-zero byte at each position of every range
// a header can hold, with a later non-zero byte that must not win.
func TestReservedError(t *testing.T) {
	var h hdr
	for from := 0; from < HeaderSize; from++ {
		for to := from + 1; to <= HeaderSize; to++ {
			for i := from; i < to; i++ {
				h[i], h[to-1] = 0x80, 1
				var e *Error
				err := reservedError(&h, from, to, "r", ruleReqReserved)
				if !errors.As(err, &e) || e.Offset != i || e.Err != ErrReserved || e.Field != "r" {
					t.Fatalf("[%d:%d] first non-zero at %d: got %v", from, to, i, err)
				}
				h[i], h[to-1] = 0, 0
			}
		}
	}
}

// TestReservedAreas checks, byte by byte, that each reserved-area test
// covers exactly its range of the layout: a non-zero byte inside makes it
// non-zero, one anywhere else leaves it zero.
func TestReservedAreas(t *testing.T) {
	areas := []struct {
		name     string
		from, to int
		test     func(*hdr) uint64
	}{
		{"reserved_frame", offReservedFrame, offKind, reservedFrame},
		{"request operation_padding", offReqOperationPad, offReqOperationPad + sizeReqOperationPad, reqPadding},
		{"reply operation_padding", offRepOperationPad, offRepOperationPad + sizeRepOperationPad, repPadding},
		{"eviction reserved", offEvReserved, offEvReserved + sizeEvReserved, evReserved},
	}
	// The fast path's combined tests: each is the union of its areas (the
	// request's and reply's reserved areas are tested only here).
	combined := []struct {
		name string
		in   func(i int) bool
		test func(*hdr) uint64
	}{
		{"request", func(i int) bool { return i >= 62 && i < 128 || i >= 177 && i < 184 || i >= 196 }, func(h *hdr) uint64 { return requestReservedBits(h, offReqReserved) }},
		{"NonReplicated request", func(i int) bool { return i >= 62 && i < 128 || i >= 177 && i < 184 || i >= 200 }, func(h *hdr) uint64 { return requestReservedBits(h, offReqCode+sizeReqCode) }},
		{"reply", func(i int) bool { return i >= 62 && i < 128 || i >= 209 && i < 216 || i >= 220 }, replyReservedBits},
		{"eviction", func(i int) bool { return i >= 62 && i < 128 || i >= 152 && i < 255 }, evictionReservedBits},
	}
	for _, c := range combined {
		var h hdr
		for i := range h {
			h[i] = 0xff
			if (c.test(&h) != 0) != c.in(i) {
				t.Errorf("%s reserved bits: byte %d set gives %#x", c.name, i, c.test(&h))
			}
			h[i] = 0
		}
	}
	for _, a := range areas {
		var h hdr
		if a.test(&h) != 0 {
			t.Errorf("%s: non-zero on a zero header", a.name)
		}
		for i := range h {
			h[i] = 0xff
			if in := a.from <= i && i < a.to; (a.test(&h) != 0) != in {
				t.Errorf("%s [%d:%d]: byte %d set gives %#x", a.name, a.from, a.to, i, a.test(&h))
			}
			h[i] = 0
		}
	}
}

// TestEncodersWriteEveryByte appends each header kind onto a buffer whose
// spare capacity is garbage: growHeader does not clear it, so the encoding
// must come out the same as onto a fresh buffer. Every field is set to all
// ones in one case, so a field stored short shows too.
func TestEncodersWriteEveryByte(t *testing.T) {
	ones := Uint128{Lo: ^uint64(0), Hi: ^uint64(0)}
	cases := map[string]interface{ AppendBinary([]byte) ([]byte, error) }{
		"request register": &RequestHeader{Size: 300, Client: Uint128From(7), Operation: OperationRegister},
		"request ping": &RequestHeader{
			Size: 256, Client: Uint128From(7), Operation: OperationNonReplicated, Code: CodePing, UserID: 9,
		},
		"request ones": &RequestHeader{
			Checksum: ones, ChecksumBody: ones, Cluster: ones, Size: MaxFrameSize, View: ^uint32(0),
			Release: ^uint32(0), Replica: 0xff, Client: ones, RequestChecksum: ones, Timestamp: ^uint64(0),
			Request: ^uint64(0), Operation: OperationNonReplicated, Session: ^uint64(0), UserID: ^uint32(0),
			Code: Code(^uint32(0)),
		},
		"reply": &ReplyHeader{Size: 256, Client: Uint128From(7), Request: 3, Operation: OperationNonReplicated},
		"reply ones": &ReplyHeader{
			Checksum: ones, ChecksumBody: ones, Cluster: ones, Size: 256, View: ^uint32(0),
			Release: ^uint32(0), Replica: 0xff, RequestChecksum: ones, Context: ones, Client: ones,
			Op: ^uint64(0), Commit: ^uint64(0), Timestamp: ^uint64(0), Request: ^uint64(0),
			Operation: OperationNonReplicated, Status: Status(^uint32(0)),
		},
		"eviction": ptr(NewEviction(Uint128From(7), ReasonNoSession)),
		"eviction ones": &Eviction{
			Checksum: ones, ChecksumBody: ones, Cluster: ones, View: ^uint32(0), Release: ^uint32(0),
			Replica: 0xff, Client: ones, Window: Window{Max: ^Version(0), Min: 1}, Reason: ReasonIncompatibleProtocol,
		},
	}
	for name, v := range cases {
		want, err := v.AppendBinary(nil)
		if err != nil {
			t.Fatalf("%s: AppendBinary(nil): err = %v", name, err)
		}
		dirty := make([]byte, 3+HeaderSize)
		for i := range dirty {
			dirty[i] = 0xff ^ byte(i)
		}
		got, err := v.AppendBinary(dirty[:3])
		if err != nil {
			t.Fatalf("%s: AppendBinary(dirty): err = %v", name, err)
		}
		if !bytes.Equal(got[:3], dirty[:3]) {
			t.Errorf("%s: dst kept: got %x, want %x", name, got[:3], dirty[:3])
		}
		// Nil and empty differ here: a nil want is an AppendBinary that wrote
		// nothing, which the empty got[3:] must not pass for.
		if rest := got[3:]; !bytes.Equal(rest, want) {
			t.Errorf("%s: every byte written: got %x, want %x", name, rest, want)
		} else if (rest == nil) != (want == nil) {
			t.Errorf("%s: every byte written: got %#v, want %#v", name, rest, want)
		}
	}
}

// TestLittleEndian holds the GOARCH-chosen constant to the byte order the
// machine actually has: a wrong list in endian_little.go would make
// copy128 and get128 swap the halves of every 128-bit field.
func TestLittleEndian(t *testing.T) {
	native := binary.NativeEndian.Uint16([]byte{1, 0}) == 1
	if littleEndian != native {
		t.Fatalf("littleEndian = %v, but this machine's native order is little-endian = %v", littleEndian, native)
	}
}

// ptr returns a pointer to a copy of v, for the headers' pointer methods.
func ptr[T any](v T) *T { return &v }
