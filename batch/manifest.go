package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/method/registry"
)

// Item is one unit of work: one character's animation (one or several
// clips) rigged into one output file.
type Item struct {
	// ID names the item in reports and file names: letters, digits, '.',
	// '_' and '-', not starting with '.'; unique in the manifest.
	ID string
	// Line is the item's 1-based line in a JSON Lines manifest (0 for a
	// folder manifest), for messages.
	Line int
	// Inputs are what `meshrig rig` reads: folders, files or globs, each
	// one clip; relative paths in the manifest are resolved against its
	// folder.
	Inputs []string
	// Output is the rig's path relative to the output folder (default
	// ID.glb); its extension picks the format (.glb, .gltf, .dae, .fbx …).
	Output string
	// Rig holds the rig options.
	Rig RigOptions
	// MemoryMB, when not 0, overrides the memory model's estimate.
	MemoryMB float64
}

// RigOptions are the `meshrig rig` options an item may set; a zero field
// is the command's default. The JSON names are the manifest's keys.
type RigOptions struct {
	Method        string  `json:"method,omitempty"`
	Bones         int     `json:"bones,omitempty"`
	Skeleton      string  `json:"skeleton,omitempty"`
	Rest          string  `json:"rest,omitempty"`
	FPS           float64 `json:"fps,omitempty"`
	Frames        string  `json:"frames,omitempty"`
	Clip          string  `json:"clip,omitempty"`
	Iterations    int     `json:"iterations,omitempty"`
	InitBones     int     `json:"init_bones,omitempty"`
	MaxInfluences int     `json:"max_influences,omitempty"`
	Seed          uint64  `json:"seed,omitempty"`
	Search        string  `json:"search,omitempty"`
	Stretch       bool    `json:"stretch,omitempty"`
	Fast          bool    `json:"fast,omitempty"`
}

// line is one manifest line as written.
type line struct {
	ID       string          `json:"id"`
	Input    json.RawMessage `json:"input"`
	Output   string          `json:"output"`
	MemoryMB float64         `json:"memory_mb"`
	RigOptions
}

// ReadManifest reads the items of a manifest: a JSON Lines file (one
// object per line; blank lines and lines starting with '#' are skipped;
// relative paths resolved against the manifest's absolute folder) or a
// folder whose subfolders are the items, each with the default options
// and its folder's name as id. Every line is checked — unknown
// keys, bad values, repeated ids or outputs — before it returns; the
// error names the file and line of the first problem.
func ReadManifest(path string) ([]Item, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	if st.IsDir() {
		return readFolder(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	defer f.Close()
	// Paths resolve against the absolute folder, so a run from another
	// working folder finds the same items up to date.
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return parse(f, path, dir)
}

// ParseManifest parses JSON Lines from r; name is the manifest's path,
// for messages and for resolving relative paths.
func ParseManifest(r io.Reader, name string) ([]Item, error) {
	return parse(r, name, filepath.Dir(name))
}

func parse(r io.Reader, name, dir string) ([]Item, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var items []Item
	n := 0
	for sc.Scan() {
		n++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		it, err := parseLine(text, dir)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		it.Line = n
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%s: no items", name)
	}
	return items, unique(items, name)
}

func parseLine(text []byte, dir string) (Item, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	var l line
	if err := dec.Decode(&l); err != nil {
		return Item{}, jsonError(err)
	}
	if dec.More() {
		return Item{}, errors.New("more than one JSON value on the line")
	}
	inputs, err := inputList(l.Input)
	if err != nil {
		return Item{}, err
	}
	for k, in := range inputs {
		inputs[k] = resolve(dir, in)
	}
	it := Item{ID: l.ID, Inputs: inputs, Output: l.Output, Rig: l.RigOptions, MemoryMB: l.MemoryMB}
	if it.Rig.Rest != "" && !strings.HasPrefix(it.Rig.Rest, "frame:") {
		it.Rig.Rest = resolve(dir, it.Rig.Rest)
	}
	if err := it.check(); err != nil {
		return Item{}, err
	}
	return it, nil
}

// jsonError rewrites encoding/json's messages in the manifest's words.
func jsonError(err error) error {
	s := err.Error()
	if k, ok := strings.CutPrefix(s, "json: unknown field "); ok {
		return fmt.Errorf("unknown key %s", k)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field[strings.LastIndex(te.Field, ".")+1:] // RigOptions.bones → bones
		if field == "" {
			return fmt.Errorf("want a JSON object, not a JSON %s", te.Value)
		}
		return fmt.Errorf("key %q: want %s, not a JSON %s", field, te.Type, te.Value)
	}
	return fmt.Errorf("not a JSON object: %s", strings.TrimPrefix(s, "json: "))
}

// inputList reads "input": a string or a list of strings.
func inputList(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 {
		return nil, errors.New(`missing "input": a path or glob, or a list of them (one per clip)`)
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one == "" {
			return nil, errors.New(`"input" is empty`)
		}
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, errors.New(`"input": want a string or a list of strings`)
	}
	if len(many) == 0 {
		return nil, errors.New(`"input" is an empty list`)
	}
	for _, s := range many {
		if s == "" {
			return nil, errors.New(`"input" holds an empty path`)
		}
	}
	return many, nil
}

func resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// maxBones bounds "bones" and "init_bones" as `meshrig rig` does.
const maxBones = 4096

// check validates an item's values the way `meshrig rig` would, so a bad
// value fails the manifest rather than one item hours later.
func (it *Item) check() error {
	if err := checkID(it.ID); err != nil {
		return err
	}
	if it.Output == "" {
		it.Output = it.ID + ".glb"
	}
	if err := checkOutput(it.Output); err != nil {
		return err
	}
	o := &it.Rig
	method := o.Method
	if method == "" {
		method = registry.AnimationNames()[0]
	}
	e, err := registry.Animation(method)
	if err != nil {
		return fmt.Errorf(`"method": %w`, err)
	}
	o.Method = e.Name
	switch o.Skeleton {
	case "", "tree":
	case "none":
		if !e.Free {
			return fmt.Errorf(`"skeleton": "none": method %s always builds a skeleton`, e.Name)
		}
	default:
		return fmt.Errorf(`"skeleton" %q: want "tree" or "none"`, o.Skeleton)
	}
	if o.Frames != "" {
		if _, err := format.ParseFrameRange(o.Frames); err != nil {
			return fmt.Errorf(`"frames": %w`, err)
		}
	}
	if strings.HasPrefix(o.Rest, "frame:") {
		var k int
		if _, err := fmt.Sscanf(o.Rest, "frame:%d", &k); err != nil || k < 1 || fmt.Sprintf("frame:%d", k) != o.Rest {
			return fmt.Errorf(`"rest" %q: want a mesh file or frame:K with K ≥ 1`, o.Rest)
		}
	}
	switch o.Search {
	case "", "auto", "coarse", "full":
	default:
		return fmt.Errorf(`"search" %q: want auto, coarse or full`, o.Search)
	}
	if o.Fast && o.Search == "full" {
		return fmt.Errorf(`"fast" is "search": "coarse": not with "search": "full"`)
	}
	switch {
	case o.FPS < 0 || math.IsInf(o.FPS, 0) || o.FPS > 10000:
		return fmt.Errorf(`"fps" %v: want 0 (the default) to 10000`, o.FPS)
	case o.Bones < 0 || o.Bones > maxBones:
		return fmt.Errorf(`"bones" %d: want 1 to %d (0 or absent: as many as the motion needs)`, o.Bones, maxBones)
	case o.InitBones != 0 && (o.InitBones < 2 || o.InitBones > maxBones):
		return fmt.Errorf(`"init_bones" %d: want 2 to %d`, o.InitBones, maxBones)
	case o.Iterations < 0 || o.Iterations > 1000:
		return fmt.Errorf(`"iterations" %d: want 1 to 1000`, o.Iterations)
	case o.MaxInfluences < 0 || o.MaxInfluences > 4:
		return fmt.Errorf(`"max_influences" %d: want 1 to 4`, o.MaxInfluences)
	case it.MemoryMB < 0 || math.IsInf(it.MemoryMB, 0) || it.MemoryMB > 1<<30:
		return fmt.Errorf(`"memory_mb" %v: want a positive size in MiB`, it.MemoryMB)
	}
	return nil
}

func checkID(id string) error {
	if id == "" {
		return errors.New(`missing "id"`)
	}
	if len(id) > 200 || id[0] == '.' {
		return fmt.Errorf(`"id" %q: want 1 to 200 letters, digits, '.', '_' or '-', not starting with '.'`, id)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Errorf(`"id" %q: want letters, digits, '.', '_' or '-' only`, id)
		}
	}
	return nil
}

// checkOutput keeps an item's output inside the output folder, in a
// format meshrig writes, and out of the reports folder.
func checkOutput(out string) error {
	if filepath.IsAbs(out) {
		return fmt.Errorf(`"output" %q: give a path inside the output folder, not an absolute one`, out)
	}
	clean := filepath.Clean(out)
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return fmt.Errorf(`"output" %q leaves the output folder`, out)
	}
	if first := strings.Split(filepath.ToSlash(clean), "/")[0]; first == ReportDir {
		return fmt.Errorf(`"output" %q: %s/ holds the reports`, out, ReportDir)
	}
	if _, err := format.WriterFor(out); err != nil {
		return fmt.Errorf(`"output": %w`, err)
	}
	return nil
}

// unique refuses two items with one id or one output.
func unique(items []Item, name string) error {
	ids := map[string]int{}
	outs := map[string]int{}
	for _, it := range items {
		if l, ok := ids[it.ID]; ok {
			return fmt.Errorf("%s:%d: id %q is already line %d's", name, it.Line, it.ID, l)
		}
		ids[it.ID] = it.Line
		key := strings.ToLower(filepath.Clean(it.Output)) // case-insensitive file systems too
		if l, ok := outs[key]; ok {
			return fmt.Errorf("%s:%d: output %q is already line %d's", name, it.Line, it.Output, l)
		}
		outs[key] = it.Line
	}
	return nil
}

// readFolder makes an item of each subfolder of dir.
func readFolder(dir string) ([]Item, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	var items []Item
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		it := Item{ID: e.Name(), Inputs: []string{filepath.Join(abs, e.Name())}}
		if err := it.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, e.Name()), err)
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%s: no subfolders to rig", dir)
	}
	sort.Slice(items, func(a, b int) bool { return items[a].ID < items[b].ID })
	return items, unique(items, dir)
}
