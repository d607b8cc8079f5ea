package safefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrSameOutput reports two outputs of one command that name one file.
var ErrSameOutput = errors.New("two outputs name the same file")

// Plan is what one command writes, checked before any work and written
// all together. Output checks each path as it is declared (a writable
// folder, not a folder itself, no other output, no input read so far);
// Read adds inputs as they become known and Check repeats the comparison
// once they all are. Stage writes an output to a temporary file beside it,
// and Commit renames every staged file into place only when all of them
// were written and the context is still live, so a failure or an
// interrupt leaves every destination as it was.
type Plan struct {
	inputs  []string
	outputs []planned
	byPath  map[string]int // canonical path → index in outputs
	dirs    map[string]error
}

type planned struct {
	flag, path string
	info       os.FileInfo // of the existing file, nil when there is none
	tmp        string      // staged temporary file, "" until Stage
}

// Read records files the command reads; an output may not be any of them.
func (p *Plan) Read(paths ...string) {
	for _, in := range paths {
		if in != "" {
			p.inputs = append(p.inputs, in)
		}
	}
}

// Output declares an output given by flag (for messages, e.g. "-o") and
// checks it at once: its folder exists and takes new files, it is not a
// folder or a special file, it differs from every output declared before
// and from every input read so far.
func (p *Plan) Output(flag, path string) error {
	if path == "" {
		return fmt.Errorf("%s needs a file name, not an empty one", flag)
	}
	if err := p.writableDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s %s is a folder: name a file", flag, path)
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("%s %s is not a regular file (%s)", flag, path, kind(st.Mode()))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: %w", flag, path, err)
	case err != nil:
		st = nil
	}
	clash := func(o planned) error {
		return fmt.Errorf("%s %s and %s %s: %w", o.flag, o.path, flag, path, ErrSameOutput)
	}
	c := canonical(path)
	if i, ok := p.byPath[c]; ok {
		return clash(p.outputs[i])
	}
	if st != nil { // another name for an existing output (a link)
		for _, o := range p.outputs {
			if o.info != nil && os.SameFile(o.info, st) {
				return clash(o)
			}
		}
	}
	if p.byPath == nil {
		p.byPath = map[string]int{}
	}
	p.byPath[c] = len(p.outputs)
	p.outputs = append(p.outputs, planned{flag: flag, path: path, info: st})
	return p.checkOne(p.outputs[len(p.outputs)-1])
}

// Check compares every declared output with every input recorded so far.
func (p *Plan) Check() error {
	for _, o := range p.outputs {
		if err := p.checkOne(o); err != nil {
			return err
		}
	}
	return nil
}

func (p *Plan) checkOne(o planned) error {
	for _, in := range p.inputs {
		if same(in, o.path) {
			return fmt.Errorf("%s %s: %w %s", o.flag, o.path, ErrIsInput, in)
		}
	}
	return nil
}

// Stage writes the declared output path to a temporary file beside it.
// Errors name path, never the temporary file.
func (p *Plan) Stage(path string, fill func(w io.Writer) error) error {
	for i := range p.outputs {
		o := &p.outputs[i]
		if o.path != path {
			continue
		}
		if o.tmp != "" {
			return fmt.Errorf("%s: staged twice", path)
		}
		tmp, err := stage(path, fill)
		if err != nil {
			return err
		}
		o.tmp = tmp
		return nil
	}
	return fmt.Errorf("%s: not declared as an output", path)
}

// Commit renames every staged output into place. When ctx is done, or an
// input turned out to be an output, nothing is renamed and every staged
// file is removed. Unstaged outputs are left alone.
func (p *Plan) Commit(ctx context.Context) error {
	if ctx.Err() != nil {
		p.Abort()
		return context.Cause(ctx)
	}
	if err := p.Check(); err != nil {
		p.Abort()
		return err
	}
	for i := range p.outputs {
		o := &p.outputs[i]
		if o.tmp == "" {
			continue
		}
		if err := os.Rename(o.tmp, o.path); err != nil {
			p.Abort()
			return fmt.Errorf("%s: %w", o.path, unwrapPath(err))
		}
		forget(o.tmp)
		o.tmp = ""
	}
	return nil
}

// Abort removes every staged temporary file.
func (p *Plan) Abort() {
	for i := range p.outputs {
		if t := p.outputs[i].tmp; t != "" {
			os.Remove(t)
			forget(t)
			p.outputs[i].tmp = ""
		}
	}
}

// same reports whether a and b name one file: the same file on disk when
// both exist (links included), else the same path once the folder's links
// are resolved.
func same(a, b string) bool {
	sa, ea := os.Stat(a)
	sb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(sa, sb)
	}
	return canonical(a) == canonical(b)
}

func canonical(p string) string {
	dir, base := filepath.Split(p)
	if dir == "" {
		dir = "."
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	if d, err := filepath.Abs(dir); err == nil {
		dir = d
	}
	return filepath.Join(dir, base)
}

// writableDir checks, once per folder, that dir takes new files.
func (p *Plan) writableDir(dir string) error {
	if err, ok := p.dirs[dir]; ok {
		return err
	}
	if p.dirs == nil {
		p.dirs = map[string]error{}
	}
	err := writableDir(dir)
	p.dirs[dir] = err
	return err
}

// writableDir checks that dir is a folder that takes new files, by making
// and removing one: permission bits alone miss read-only mounts and ACLs.
func writableDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("folder %s does not exist", dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	f, err := os.CreateTemp(dir, ".meshrig-probe-*")
	if err != nil {
		return fmt.Errorf("cannot write in folder %s: %w", dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
