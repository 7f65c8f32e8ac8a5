package driver

import (
	"cmp"
	"fmt"
	"go/format"
	"io"
	"os"
	"slices"
)

// An edit replaces the bytes [start, end) of a file with text.
type edit struct {
	start, end int
	text       string
}

// overlaps reports whether a and b touch the same bytes, or insert at the
// same place, where the order of the two would be a guess.
func (a edit) overlaps(b edit) bool {
	return a.start == b.start || (a.start < b.end && b.start < a.end)
}

// A fileFix is what -fix does to one file.
type fileFix struct {
	size    int    // the file's size when it was loaded
	edits   []edit // accepted so far, none overlapping another
	finding []int  // the indices of the findings fixed in this file
}

// applyFixes applies the first suggested fix of each finding, in the order
// of fs (so, where two fixes overlap, the earlier finding's wins), gofmts
// every file it changes, and writes it. It returns the findings that still
// stand: those without a fix, and those whose fix was skipped, each
// skipped fix said on stderr. ok is false when a file could not be read
// or written.
//
// A fix is taken whole or not at all: one edit overlapping an accepted
// edit skips the whole fix, since half a fix can break the code. An edit
// identical to an accepted one is no conflict, as when two findings each
// add the same import.
func applyFixes(fs []finding, cwd string, stderr io.Writer) (left []finding, ok bool) {
	files, fixed := acceptFixes(fs, cwd, stderr)
	written, ok := writeFixes(files, fixed, cwd, stderr)
	applied := 0
	for i, f := range fs {
		if fixed[i] {
			applied++
		} else {
			left = append(left, f)
		}
	}
	if applied > 0 {
		fmt.Fprintf(stderr, "mcplint: applied %d fix(es) in %d file(s)\n", applied, written)
	}
	return left, ok
}

// acceptFixes takes the first fix of each finding of fs whose edits
// overlap none taken before, and returns the edits taken, by file, and
// which findings they fix.
func acceptFixes(fs []finding, cwd string, stderr io.Writer) (map[string]*fileFix, []bool) {
	files := map[string]*fileFix{}
	fixed := make([]bool, len(fs))
	skip := func(i int, why string) {
		fmt.Fprintf(stderr, "mcplint: %s: fix skipped: %s\n", fs[i].where(cwd), why)
	}
	for i, f := range fs {
		if len(f.SuggestedFixes) == 0 {
			continue
		}
		edits, err := fileEdits(f)
		if err != nil {
			skip(i, err.Error())
			continue
		}
		if name, clash := conflict(files, edits); clash {
			skip(i, "it overlaps the fix of an earlier finding in "+relative(cwd, name)+"; run mcplint -fix again")
			continue
		}
		for name, es := range edits {
			files[name] = files[name].with(es, i)
		}
		fixed[i] = true
	}
	return files, fixed
}

// with adds es, the edits of the fix of finding i, to ff (nil for a file
// with none yet), but for those it already has.
func (ff *fileFix) with(es editsOf, i int) *fileFix {
	if ff == nil {
		ff = &fileFix{size: es.size}
	}
	for _, e := range es.edits {
		if !slices.Contains(ff.edits, e) {
			ff.edits = append(ff.edits, e)
		}
	}
	ff.finding = append(ff.finding, i)
	return ff
}

// writeFixes writes the files, in order of name, and returns how many it
// wrote. The findings of a file it could not rewrite are not fixed; ok is
// false when one could not be written.
func writeFixes(files map[string]*fileFix, fixed []bool, cwd string, stderr io.Writer) (written int, ok bool) {
	ok = true
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		ff := files[name]
		err := rewrite(name, relative(cwd, name), ff)
		if err != nil {
			// The file stays as it was, so its findings still stand. (A
			// fix across files may then be half applied: the next run
			// reports what is left.)
			fmt.Fprintf(stderr, "mcplint: %v\n", err)
			for _, i := range ff.finding {
				fixed[i] = false
			}
			if _, isWrite := err.(writeError); isWrite {
				ok = false
			}
			continue
		}
		written++
	}
	return written, ok
}

// editsOf is the edits of one fix in one file.
type editsOf struct {
	size  int
	edits []edit
}

// fileEdits returns the edits of f's first fix by file, or an error when
// an edit is out of its file or two of them overlap.
func fileEdits(f finding) (map[string]editsOf, error) {
	byFile := map[string]editsOf{}
	for _, te := range f.SuggestedFixes[0].TextEdits {
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		tf := f.fset.File(te.Pos)
		if tf == nil || end < te.Pos || int(end) > tf.Base()+tf.Size() {
			return nil, fmt.Errorf("the fix %q has an edit out of its file", f.SuggestedFixes[0].Message)
		}
		e := edit{start: tf.Offset(te.Pos), end: tf.Offset(end), text: string(te.NewText)}
		es := byFile[tf.Name()]
		for _, prev := range es.edits {
			if prev.overlaps(e) && prev != e {
				return nil, fmt.Errorf("the fix %q has overlapping edits", f.SuggestedFixes[0].Message)
			}
		}
		es.size = tf.Size()
		es.edits = append(es.edits, e)
		byFile[tf.Name()] = es
	}
	return byFile, nil
}

// conflict reports whether an edit of edits overlaps an accepted edit
// without being the same one, and in which file.
func conflict(files map[string]*fileFix, edits map[string]editsOf) (name string, clash bool) {
	for name, es := range edits {
		ff := files[name]
		if ff == nil {
			continue
		}
		for _, e := range es.edits {
			for _, prev := range ff.edits {
				if prev.overlaps(e) && prev != e {
					return name, true
				}
			}
		}
	}
	return "", false
}

// A writeError is a file -fix could not write, which fails the run;
// other errors of rewrite leave the file as it was and its findings
// standing.
type writeError struct{ error }

// rewrite applies ff's edits to the file name, gofmts it and writes it;
// its errors call the file short.
func rewrite(name, short string, ff *fileFix) error {
	src, err := os.ReadFile(name)
	if err != nil {
		return writeError{err}
	}
	if len(src) != ff.size {
		return fmt.Errorf("%s changed since it was loaded; its fixes were not applied", short)
	}
	edits := slices.Clone(ff.edits)
	slices.SortFunc(edits, func(a, b edit) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
	var buf []byte
	at := 0
	for _, e := range edits {
		buf = append(buf, src[at:e.start]...)
		buf = append(buf, e.text...)
		at = e.end
	}
	buf = append(buf, src[at:]...)
	out, err := format.Source(buf)
	if err != nil {
		// An analyzer's fix that breaks the syntax is its bug; writing it
		// would break the build too.
		return fmt.Errorf("%s: its fixes do not make valid Go (%v); the file was left as it was", short, err)
	}
	if err := os.WriteFile(name, out, 0o644); err != nil { // the mode of an existing file is kept
		return writeError{err}
	}
	return nil
}
