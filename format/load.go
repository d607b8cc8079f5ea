package format

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// LoadOptions controls Load.
type LoadOptions struct {
	// Rest overrides the rest pose: a mesh file, or "frame:K" for the K-th
	// frame (1-based) of the loaded animation, counted after Frames. ""
	// picks, in order: a folder's rest.* or reference.* file, a scene's
	// bind pose, a lone mesh file given beside point caches, or else
	// frame 1.
	Rest string
	// FPS is the frame rate of per-frame mesh sequences (default 30), and
	// the sampling rate of scenes (default: their own key times), finer
	// where needed so each clip ends on its last key.
	FPS float64
	// Clip keeps only the scene clip of this name.
	Clip string
	// Object keeps only the object at this path of a scene file that
	// holds several (Alembic).
	Object string
	// Frames keeps frames First to Last of every clip (see FrameRange):
	// of each folder, glob, point cache and scene animation, and of the
	// mesh files given one by one. Mesh files outside it are not read and
	// scene frames outside it are not sampled. The zero value keeps all.
	Frames FrameRange
	// Context, when not nil, is checked between files, frames and clips:
	// once it is done Load stops and returns its error.
	Context context.Context
	// Progress, when set, is called as files are read.
	Progress func(done, total int)
}

// Input is a loaded animation.
type Input struct {
	Sequence *seq.Sequence
	// Truth is a skeleton, skin and motion that an input file carried
	// (glTF), for comparison; nil when none did.
	Truth *rig.Rig
	// Files lists every file read, so writers can refuse to overwrite them:
	// the rest mesh, the frames' mesh files, point caches, and scene files
	// with their side files (buffers).
	Files []string
	// Objects lists the objects of the scene files that hold several
	// (Alembic), for listings; see ObjectInfo.
	Objects []ObjectInfo
}

// part is one clip's worth of input before the rest pose is settled.
type part struct {
	name   string
	meshes []string // per-frame mesh files, in order
	rest   string   // a folder's rest.* file
	cache  string   // a point-cache file
	scene  string   // an animated scene file
}

// Load reads an animation from command-line arguments: folders of
// per-frame meshes (natural order), globs, lists of mesh files, point
// caches (with a rest mesh) and animated scene files. Each folder, glob,
// cache or scene clip becomes one clip; all share one rest pose. Only
// regular files are read (ErrNotRegular).
func Load(args []string, opt LoadOptions) (*Input, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("no input given")
	}
	if opt.FPS < 0 {
		return nil, fmt.Errorf("frame rate %v is negative", opt.FPS)
	}
	if err := opt.Frames.Validate(); err != nil {
		return nil, err
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	parts, loose, err := collect(args)
	if err != nil {
		return nil, err
	}
	in := &Input{}
	// A lone mesh file beside point caches is their rest pose.
	hasCache := false
	for _, p := range parts {
		hasCache = hasCache || p.cache != ""
	}
	restFile := ""
	if strings.HasPrefix(opt.Rest, "frame:") {
		// handled after loading
	} else if opt.Rest != "" {
		restFile = opt.Rest
	}
	if len(loose) == 1 && hasCache {
		if restFile == "" {
			restFile = loose[0]
		}
	} else if len(loose) > 0 {
		parts = append([]part{{name: "default", meshes: loose}}, parts...)
	}
	if restFile == "" && !strings.HasPrefix(opt.Rest, "frame:") {
		for _, p := range parts {
			if p.rest != "" {
				restFile = p.rest
				break
			}
		}
	}
	var rest *mesh.Mesh
	if restFile != "" {
		var side []string
		if rest, side, err = ReadRestMesh(restFile); err != nil {
			return nil, fmt.Errorf("rest pose: %w", err)
		}
		in.Files = append(in.Files, restFile)
		in.Files = append(in.Files, side...)
	}
	var seqs []*seq.Sequence
	for _, p := range parts {
		if err := opt.Context.Err(); err != nil {
			return nil, err
		}
		s, truth, files, objects, err := p.load(rest, opt)
		if err != nil {
			return nil, err
		}
		in.Files = append(in.Files, files...)
		in.Objects = append(in.Objects, objects...)
		if rest == nil {
			rest = s.Rest
		}
		if truth != nil && in.Truth == nil {
			in.Truth = truth
		}
		seqs = append(seqs, s)
	}
	if rest == nil {
		return nil, fmt.Errorf("point caches need a rest mesh: give --rest FILE or one mesh file beside them")
	}
	for k, s := range seqs {
		if err := seq.SameFaces(rest, s.Rest); err != nil {
			return nil, fmt.Errorf("%s: does not match the rest pose: %w", parts[k].label(), err)
		}
		s.Rest = rest
	}
	all := seqs[0]
	if len(seqs) > 1 { // Merge copies every frame: not for one part
		if all, err = seq.Merge(seqs...); err != nil {
			return nil, err
		}
	}
	if k, ok := strings.CutPrefix(opt.Rest, "frame:"); ok {
		f, err := strconv.Atoi(k)
		if err != nil || f < 1 || f > all.F() {
			return nil, fmt.Errorf("--rest %s: want frame:K with K from 1 to %d", opt.Rest, all.F())
		}
		all.Rest = all.Rest.WithVerts(all.FrameInto(nil, f-1))
	}
	if err := all.Validate(); err != nil {
		return nil, err
	}
	if len(seqs) > 1 {
		in.Truth = nil // a file's truth covers its own clips only
	}
	if err := opt.Context.Err(); err != nil {
		return nil, err
	}
	in.Sequence = all
	return in, nil
}

func (p part) label() string {
	switch {
	case p.cache != "":
		return p.cache
	case p.scene != "":
		return p.scene
	default:
		return p.name
	}
}

// collect sorts arguments into parts; loose mesh files (given one by
// one, as a shell expands a glob) are returned apart.
func collect(args []string) (parts []part, loose []string, err error) {
	for _, a := range args {
		st, statErr := os.Stat(a)
		switch {
		case statErr == nil && st.IsDir():
			p, err := folder(a)
			if err != nil {
				return nil, nil, err
			}
			parts = append(parts, p)
		case statErr != nil && strings.ContainsAny(a, "*?["):
			files, err := filepath.Glob(a)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", a, err)
			}
			files = meshFiles(files)
			if len(files) == 0 {
				return nil, nil, fmt.Errorf("%s: %w: no mesh files match", a, ErrNoFrames)
			}
			parts = append(parts, part{name: clipName(a), meshes: files})
		case statErr != nil:
			return nil, nil, statErr
		default:
			f, _, err := ByPath(a)
			if err != nil {
				return nil, nil, err
			}
			switch {
			case f.Scene != nil:
				parts = append(parts, part{name: clipName(a), scene: a})
			case f.Cache != nil:
				parts = append(parts, part{name: clipName(a), cache: a})
			case f.Mesh != nil:
				loose = append(loose, a)
			default:
				if f.Joints != nil {
					return nil, nil, fmt.Errorf("%s: %w: a %s file is a skeleton, not an animation (give it as --truth)", a, ErrUnsupported, f.Name)
				}
				return nil, nil, fmt.Errorf("%s: %w: %s files cannot be read as an animation", a, ErrUnsupported, f.Name)
			}
		}
	}
	return parts, loose, nil
}

// folder lists a folder's per-frame meshes in natural order, setting apart
// a rest.* or reference.* file; a folder without them holding one point
// cache is that cache.
func folder(dir string) (part, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return part{}, err
	}
	p := part{name: clipName(dir)}
	var names []string
	for _, e := range ents {
		if !e.IsDir() {
			names = append(names, filepath.Join(dir, e.Name()))
		}
	}
	for _, n := range meshFiles(names) {
		base := strings.ToLower(filepath.Base(n))
		if strings.HasPrefix(base, "rest.") || strings.HasPrefix(base, "reference.") {
			p.rest = n
			continue
		}
		p.meshes = append(p.meshes, n)
	}
	if len(p.meshes) == 0 {
		// A folder of one point cache and its rest mesh (meshrig gen
		// --pc2 writes one) is that cache.
		var caches []string
		for _, n := range names {
			if f, _, err := ByPath(n); err == nil && f.Cache != nil {
				caches = append(caches, n)
			}
		}
		if len(caches) == 1 {
			p.cache = caches[0]
			return p, nil
		}
		if len(caches) > 1 {
			return part{}, fmt.Errorf("%s: %w: the folder has no mesh files and %d point caches; give the cache to read (with --rest)", dir, ErrNoFrames, len(caches))
		}
		return part{}, fmt.Errorf("%s: %w: the folder has no mesh files (%s)", dir, ErrNoFrames, meshExts())
	}
	return p, nil
}

// meshFiles keeps the names of per-frame mesh files, in natural order.
func meshFiles(names []string) []string {
	var out []string
	for _, n := range names {
		if f, _, err := ByPath(n); err == nil && f.Mesh != nil {
			out = append(out, n)
		}
	}
	sortNatural(out)
	return out
}

func sortNatural(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && NaturalLess(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func meshExts() string {
	var e []string
	for _, f := range Formats() {
		if f.Mesh != nil {
			e = append(e, f.Exts...)
		}
	}
	return strings.Join(e, ", ")
}

func clipName(path string) string {
	b := filepath.Base(filepath.Clean(path))
	for {
		ext := filepath.Ext(b)
		if ext == "" || ext == b {
			break
		}
		b = strings.TrimSuffix(b, ext)
	}
	b = strings.Trim(b, "*?[]-_")
	if b == "" {
		return "default"
	}
	return b
}

// load reads one part. rest may be nil, then the part supplies its own.
func (p part) load(rest *mesh.Mesh, opt LoadOptions) (*seq.Sequence, *rig.Rig, []string, []ObjectInfo, error) {
	fps := opt.FPS
	switch {
	case p.scene != "":
		sc, err := ReadScene(p.scene, SceneOptions{FPS: fps, Clip: opt.Clip, Object: opt.Object, Frames: opt.Frames, Context: opt.Context})
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if sc.Sequence == nil {
			return nil, nil, nil, nil, fmt.Errorf("%s: %w: the file has no animation", p.scene, ErrNoFrames)
		}
		return sc.Sequence, sc.Rig, sc.Files, sc.Objects, nil
	}
	s, truth, files, err := p.loadFrames(rest, opt)
	return s, truth, files, nil, err
}

// loadFrames reads a point cache or per-frame mesh files.
func (p part) loadFrames(rest *mesh.Mesh, opt LoadOptions) (*seq.Sequence, *rig.Rig, []string, error) {
	fps := opt.FPS
	switch {
	case p.cache != "":
		if rest == nil {
			return nil, nil, nil, fmt.Errorf("%s: a point cache needs a rest mesh: give --rest FILE or one mesh file beside it", p.cache)
		}
		f, _, _ := ByPath(p.cache)
		rc, err := Open(p.cache)
		if err != nil {
			return nil, nil, nil, err
		}
		defer rc.Close()
		frames, cfps, err := f.Cache(bufio.NewReaderSize(rc, 1<<16), len(rest.Verts))
		if err != nil {
			return nil, nil, nil, WithFile(err, p.cache)
		}
		n := len(rest.Verts)
		first, kept, err := pick(make([]struct{}, len(frames)/n), opt.Frames, p.cache)
		if err != nil {
			return nil, nil, nil, err
		}
		if len(kept) < len(frames)/n { // not the whole cache held for a part of it
			frames = slices.Clone(frames[first*n : (first+len(kept))*n])
		}
		if fps == 0 {
			fps = cfps
		}
		if fps == 0 {
			fps = 30
		}
		s := seq.New(rest)
		s.StartClip(p.name, fps)
		names := make([]string, len(kept))
		for k := range names {
			names[k] = fmt.Sprintf("%s#%d", filepath.Base(p.cache), first+k+1)
		}
		if err := s.AddFrames(frames, names); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", p.cache, err)
		}
		if s.F() == 0 {
			return nil, nil, nil, fmt.Errorf("%s: %w", p.cache, ErrNoFrames)
		}
		return s, nil, []string{p.cache}, nil
	}
	if fps == 0 {
		fps = 30
	}
	_, files, err := pick(p.meshes, opt.Frames, fmt.Sprintf("clip %q", p.name))
	if err != nil {
		return nil, nil, nil, err
	}
	// The rest pose (given, or the first frame's mesh) fixes the vertex
	// count; then every frame is read in parallel straight into one array
	// of float32 positions — by the format's Frame reader where it has one
	// (no mesh built), else as a mesh dropped once its positions are
	// copied: the frames are held once, not as F meshes and then a
	// sequence.
	read := files
	var first *mesh.Mesh
	if rest == nil {
		if first, err = ReadMesh(files[0]); err != nil {
			return nil, nil, nil, err
		}
		rest = first
		if f, _, _ := ByPath(files[0]); f != nil && f.MeshFS != nil {
			// The rest pose brings its materials; frames only positions.
			var side []string
			if rest, side, err = ReadRestMesh(files[0]); err != nil {
				return nil, nil, nil, err
			}
			read = append(files[:len(files):len(files)], side...)
		}
	}
	n := len(rest.Verts)
	frames := make([]linalg.Vec3f, len(files)*n)
	errs := make([]error, len(files))
	var mu sync.Mutex
	done := 0
	var bufs sync.Pool // a file's bytes for Format.Frame, one buffer per worker
	par.For(len(files), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if err := opt.Context.Err(); err != nil {
				errs[i] = err
				continue
			}
			dst := frames[i*n : (i+1)*n]
			m := first
			if i > 0 || m == nil {
				m = nil // read straight into dst
				if !readFrame(files[i], rest, dst, &bufs) {
					m, errs[i] = ReadMesh(files[i])
				}
			}
			if errs[i] == nil && m != nil {
				if err := seq.SameFaces(rest, m); err != nil {
					errs[i] = fmt.Errorf("frame %d (%s): %w", i+1, files[i], err)
				} else {
					for k, v := range m.Verts {
						dst[k] = v.Vec3f()
					}
				}
			}
			if opt.Progress != nil {
				mu.Lock()
				done++
				opt.Progress(done, len(files))
				mu.Unlock()
			}
		}
	})
	if err := opt.Context.Err(); err != nil {
		return nil, nil, nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, nil, nil, err
		}
	}
	s := seq.New(rest)
	s.StartClip(p.name, fps)
	if err := s.AddFrames(frames, files); err != nil {
		return nil, nil, nil, err
	}
	return s, nil, read, nil
}

// pick keeps the frames r selects of one clip's, and returns the 0-based
// index of the first kept; what names the clip in errors.
func pick[T any](frames []T, r FrameRange, what string) (int, []T, error) {
	if len(frames) == 0 {
		return 0, frames, nil // the caller reports an empty clip
	}
	lo, hi, err := r.Span(len(frames))
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w", what, err)
	}
	return lo, frames[lo:hi], nil
}

// readFrame reads the frame in file name into dst through its format's
// Frame reader and reports whether that succeeded; false leaves the file
// to ReadMesh, for the formats without one and for the errors.
func readFrame(name string, rest *mesh.Mesh, dst []linalg.Vec3f, bufs *sync.Pool) bool {
	f, _, err := ByPath(name)
	if err != nil || f.Frame == nil {
		return false
	}
	rc, err := Open(name)
	if err != nil {
		return false
	}
	defer rc.Close()
	buf, _ := bufs.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer bufs.Put(buf)
	buf.Reset()
	if f, ok := rc.(fs.File); ok {
		if st, err := f.Stat(); err == nil && st.Size() > 0 {
			buf.Grow(int(st.Size()) + 1) // ReadFrom then reads without regrowing
		}
	}
	if _, err := buf.ReadFrom(rc); err != nil {
		return false
	}
	return f.Frame(buf.Bytes(), rest, dst) == nil
}
