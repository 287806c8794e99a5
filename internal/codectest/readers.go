package codectest

import "io"

// StutterReader hands out Src a byte per Read, with an empty Read (0, nil)
// before each, then io.EOF: a reader that bends the io.Reader contract as
// far as it allows, for tests of stream readers.
type StutterReader struct {
	Src   []byte
	empty bool
}

// Read implements io.Reader.
func (r *StutterReader) Read(p []byte) (int, error) {
	if r.empty = !r.empty; r.empty {
		return 0, nil
	}
	if len(r.Src) == 0 {
		return 0, io.EOF
	}
	p[0], r.Src = r.Src[0], r.Src[1:]
	return 1, nil
}

// CountReader returns its own value from every Read, filling nothing: a
// reader that breaks the io.Reader contract (a negative count, or more
// than len(p)) or never makes progress (0).
type CountReader int

// Read implements io.Reader.
func (n CountReader) Read([]byte) (int, error) { return int(n), nil }
