package main

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// FileName is the record file of the package with import path pkgPath in
// the module modulePath: its path in the module with / as _, plus .txt
// (codec.txt, lifecycle_tcp.txt); the module's root package is named after
// the module's last element.
func FileName(modulePath, pkgPath string) string {
	rel := pkgPath
	switch {
	case pkgPath == modulePath:
		rel = path.Base(modulePath)
	case strings.HasPrefix(pkgPath, modulePath+"/"):
		rel = pkgPath[len(modulePath)+1:]
	}
	return strings.ReplaceAll(rel, "/", "_") + ".txt"
}

// ReadRecord reads the features of a record file: one a line, blank lines
// and lines starting with # ignored. A missing file is an empty record.
func ReadRecord(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var features []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		features = append(features, line)
	}
	slices.Sort(features)
	return slices.Compact(features), sc.Err()
}

// Format is a record file's content: the features, one a line.
func Format(features []string) []byte {
	var b bytes.Buffer
	for _, f := range features {
		b.WriteString(f)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Diff lists the features of want missing from have as "-feature" and
// those of have missing from want as "+feature", in feature order (both
// sorted, without duplicates), so that a changed feature shows as its old
// and new line together.
func Diff(record, have []string) []string {
	var out []string
	i, j := 0, 0
	for i < len(record) || j < len(have) {
		switch {
		case j == len(have) || i < len(record) && record[i] < have[j]:
			out = append(out, "-"+record[i])
			i++
		case i == len(record) || have[j] < record[i]:
			out = append(out, "+"+have[j])
			j++
		default:
			i++
			j++
		}
	}
	return out
}

// staleRecords lists the .txt files in dir not named in keep.
func staleRecords(dir string, keep map[string]bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".txt") && !keep[e.Name()] {
			stale = append(stale, filepath.Join(dir, e.Name()))
		}
	}
	return stale, nil
}
