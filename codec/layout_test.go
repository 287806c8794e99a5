package codec

import (
	"bufio"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// layoutField ties one row of a WIRE.md header table to its off*/size*
// constants. Suffix is the constant name without "off"/"size", so the test
// can also check that layout.go declares nothing the table does not cover.
type layoutField struct {
	wire   string // field name as WIRE.md writes it, before any '(' ':' ';'
	suffix string
	off    int
	size   int
}

var prologueLayout = []layoutField{
	{"checksum", "Checksum", offChecksum, sizeChecksum},
	{"checksum_body", "ChecksumBody", offChecksumBody, sizeChecksumBody},
	{"cluster", "Cluster", offCluster, sizeCluster},
	{"size", "Size", offSize, sizeSize},
	{"view", "View", offView, sizeView},
	{"release", "Release", offRelease, sizeRelease},
	{"command", "Command", offCommand, sizeCommand},
	{"replica", "Replica", offReplica, sizeReplica},
	{"reserved_frame", "ReservedFrame", offReservedFrame, sizeReservedFrame},
}

var kindLayouts = map[string][]layoutField{
	"Request": {
		{"client id", "ReqClient", offReqClient, sizeReqClient},
		{"request_checksum", "ReqRequestChecksum", offReqRequestChecksum, sizeReqRequestChecksum},
		{"timestamp", "ReqTimestamp", offReqTimestamp, sizeReqTimestamp},
		{"request number", "ReqRequest", offReqRequest, sizeReqRequest},
		{"operation", "ReqOperation", offReqOperation, sizeReqOperation},
		{"operation padding", "ReqOperationPad", offReqOperationPad, sizeReqOperationPad},
		{"session", "ReqSession", offReqSession, sizeReqSession},
		{"user_id", "ReqUserID", offReqUserID, sizeReqUserID},
		{"reserved", "ReqReserved", offReqReserved, sizeReqReserved},
	},
	"Reply": {
		{"request_checksum", "RepRequestChecksum", offRepRequestChecksum, sizeRepRequestChecksum},
		{"context", "RepContext", offRepContext, sizeRepContext},
		{"client id", "RepClient", offRepClient, sizeRepClient},
		{"op", "RepOp", offRepOp, sizeRepOp},
		{"commit", "RepCommit", offRepCommit, sizeRepCommit},
		{"timestamp", "RepTimestamp", offRepTimestamp, sizeRepTimestamp},
		{"request", "RepRequest", offRepRequest, sizeRepRequest},
		{"operation", "RepOperation", offRepOperation, sizeRepOperation},
		{"operation padding", "RepOperationPad", offRepOperationPad, sizeRepOperationPad},
		{"status", "RepStatus", offRepStatus, sizeRepStatus},
		{"reserved", "RepReserved", offRepReserved, sizeRepReserved},
	},
	"Eviction": {
		{"client id", "EvClient", offEvClient, sizeEvClient},
		{"server_protocol_version", "EvWindowMax", offEvWindowMax, sizeEvWindowMax},
		{"server_protocol_version_min", "EvWindowMin", offEvWindowMin, sizeEvWindowMin},
		{"reserved", "EvReserved", offEvReserved, sizeEvReserved},
		{"reason", "EvReason", offEvReason, sizeEvReason},
	},
}

// wireRow is one parsed row of a WIRE.md table.
type wireRow struct {
	name, text string
	off, size  int
}

// wireTables parses section 5 of testdata/WIRE.md: the first table is the
// prologue (key ""), then one table under each "### Kind" heading.
func wireTables(t *testing.T) map[string][]wireRow {
	t.Helper()
	f, err := os.Open("testdata/WIRE.md")
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

// TestLayoutMatchesWire checks the off*/size* constants against the header
// tables of WIRE.md section 5: each kind's ranges (prologue then kind part,
// reserved ranges included) tile bytes 0..256 with no gap and no overlap,
// every WIRE.md row has a constant pair with its offset and size, and every
// constant of layout.go is one of those pairs.
func TestLayoutMatchesWire(t *testing.T) {
	tables := wireTables(t)
	consts := layoutConsts(t)
	if len(tables) != 4 {
		t.Fatalf("WIRE.md section 5: want the prologue and 3 kind tables, got %d tables", len(tables))
	}
	compare := func(t *testing.T, rows []wireRow, fields []layoutField) {
		t.Helper()
		if len(rows) != len(fields) {
			t.Fatalf("WIRE.md has %d rows, layout has %d fields", len(rows), len(fields))
		}
		for i, f := range fields {
			r := rows[i]
			if r.name != f.wire || r.off != f.off || r.size != f.size {
				t.Errorf("row %d: WIRE.md %q at %d size %d; layout %q at %d size %d", i, r.name, r.off, r.size, f.wire, f.off, f.size)
			}
			if consts["off"+f.suffix] != f.off || consts["size"+f.suffix] != f.size {
				t.Errorf("layout.go off%s/size%s do not match the table", f.suffix, f.suffix)
			}
		}
	}
	t.Run("prologue", func(t *testing.T) { compare(t, tables[""], prologueLayout) })
	for kind, fields := range kindLayouts {
		t.Run(kind, func(t *testing.T) {
			compare(t, tables[kind], fields)
			end := 0
			for _, f := range append(append([]layoutField{}, prologueLayout...), fields...) {
				if f.off != end {
					t.Errorf("%s starts at %d, previous field ends at %d (gap or overlap)", f.wire, f.off, end)
				}
				if f.size <= 0 {
					t.Errorf("%s has size %d", f.wire, f.size)
				}
				end = f.off + f.size
				if f.off == offKind && f.wire != fields[0].wire {
					t.Errorf("the kind part must start at offKind (%d), not %s", offKind, f.wire)
				}
			}
			if end != HeaderSize {
				t.Errorf("layout ends at %d, want %d", end, HeaderSize)
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
		from, _ := strconv.Atoi(m[1])
		to, _ := strconv.Atoi(m[2])
		if offReqCode != from || offReqCode+sizeReqCode != to || offReqCode < offReqReserved {
			t.Errorf("code at %d..%d, WIRE.md says %d..%d inside reserved at %d", offReqCode, offReqCode+sizeReqCode, from, to, offReqReserved)
		}
	})

	// Nothing in layout.go escapes the checks above.
	t.Run("every constant", func(t *testing.T) {
		covered := map[string]bool{"offKind": true, "offReqCode": true, "sizeReqCode": true}
		for _, fields := range append([][]layoutField{prologueLayout}, kindLayouts["Request"], kindLayouts["Reply"], kindLayouts["Eviction"]) {
			for _, f := range fields {
				covered["off"+f.suffix], covered["size"+f.suffix] = true, true
			}
		}
		for name := range consts {
			if !covered[name] {
				t.Errorf("layout.go declares %s, which no WIRE.md row checks", name)
			}
		}
		if consts["offKind"] != offReservedFrame+sizeReservedFrame {
			t.Errorf("offKind = %d, the prologue ends at %d", consts["offKind"], offReservedFrame+sizeReservedFrame)
		}
	})
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
				err := reservedError(&h, from, to, "r")
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
		{"request reserved", offReqReserved, HeaderSize, func(h *hdr) uint64 { return reqReserved(h, offReqReserved) }},
		{"request reserved past the code", offReqCode + sizeReqCode, HeaderSize, func(h *hdr) uint64 { return reqReserved(h, offReqCode+sizeReqCode) }},
		{"reply operation_padding", offRepOperationPad, offRepOperationPad + sizeRepOperationPad, repPadding},
		{"reply reserved", offRepReserved, offRepReserved + sizeRepReserved, repReserved},
		{"eviction reserved", offEvReserved, offEvReserved + sizeEvReserved, evReserved},
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
