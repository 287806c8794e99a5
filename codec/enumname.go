package codec

// enumName is one row of an enum's name table, in the style of
// x/net/http2's frame type names: the values first..last are known to the
// table. A row of one value (first == last) is that value's name; a range
// row's name is a prefix that the value's number completes ("internal_" +
// "64"). Rows are searched in order and the first that holds the value
// wins, so a range row may follow names carved out of it.
//
// Each enum's table is a value returned by a function, not a package
// variable, so that no package state exists to be changed; the compiler
// keeps it off the heap.
type enumName struct {
	first, last uint32
	name        string
}

// lookupName returns the row of rows that holds v and whether one does.
func lookupName(rows []enumName, v uint32) (enumName, bool) {
	for _, r := range rows {
		if r.first <= v && v <= r.last {
			return r, true
		}
	}
	return enumName{}, false
}

// enumString prints v by its table: a named value by its name, a range
// member by its prefix and number, and a value no row holds as
// "UNKNOWN_<kind>_N", the one form every enum of the package uses.
func enumString(rows []enumName, kind string, v uint32) string {
	r, ok := lookupName(rows, v)
	switch {
	case !ok:
		return "UNKNOWN_" + kind + "_" + itoa(uint64(v))
	case r.first < r.last:
		return r.name + itoa(uint64(v))
	}
	return r.name
}
