// Package reflectprint is leakcheck for the third-party printers and
// comparers that walk a value by reflection, unexported fields included,
// and follow its pointers: go-spew (as testify's failure diff uses it,
// methods disabled), kr/pretty, go-cmp with every field exported, and
// testify's assert.Equal message. A secret that kept a typed pointer to its
// bytes would show its first byte through them (go-spew's (*uint8)(81)),
// even though every fmt verb prints a redaction; leakcheck's Matcher knows
// those forms. The printers and the check are its tests; it has no other
// code. (go-cmp's AllowUnexported of every struct type met is the same
// exporter as Exporter of all types, so only the latter is printed with.)
//
// Its tests are apart from leakcheck's because leakcheck is imported by
// the tests of the product packages (codec, lifecycle, lifecycle/tcp),
// which import only the standard library. Nothing imports this package;
// fuzz/'s FuzzSecretPrinting prints with the same printers.
package reflectprint
