package format

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Format describes one file format. A format fills the functions it
// supports and leaves the others nil.
type Format struct {
	// Name is the short name shown to users ("obj", "gltf").
	Name string
	// Exts are the lower-case extensions with the dot (".obj"). A ".gz"
	// suffix on top of any of them is read transparently.
	Exts []string
	// Mesh reads one mesh: one frame of a per-frame sequence.
	Mesh func(r io.Reader) (*mesh.Mesh, error)
	// MeshFS, when set, reads one mesh as Mesh does together with the
	// side files it names (OBJ's material libraries and their textures),
	// resolved in fsys relative to name and never outside its folder; it
	// returns the side files read, as names in fsys. ReadRestMesh uses it;
	// frames are read with Mesh. An error in a side file is a ParseError
	// whose File is that name.
	MeshFS func(fsys fs.FS, name string) (m *mesh.Mesh, sideFiles []string, err error)
	// Frame, when set, reads one frame of a per-frame sequence whose rest
	// mesh is rest: the whole file's bytes in b, its positions written to
	// dst (len(rest.Verts) points) after checking that its faces are
	// rest's. Load reads frames with it, so no mesh is built per frame;
	// any error sends the file to Mesh, whose error names the problem, so
	// Frame may refuse what it does not handle.
	Frame func(b []byte, rest *mesh.Mesh, dst []linalg.Vec3f) error
	// Cache reads the frames of a point cache whose rest mesh has n
	// vertices: F·n points, frame f's at [f*n, (f+1)*n), with its frame
	// rate (0 when the file has none).
	Cache func(r io.Reader, n int) (frames []linalg.Vec3f, fps float64, err error)
	// Scene reads a whole animated file, resolving side files in fsys.
	Scene func(fsys fs.FS, name string, opt SceneOptions) (*Scene, error)
	// Write writes a rig.
	Write func(w io.Writer, r *rig.Rig, opt WriteOptions) error
	// Joints reads a skeleton's joint positions: ground truth to measure
	// joint error against (--truth).
	Joints func(r io.Reader) ([]linalg.Vec3, error)
	// SceneReads says what Scene finds in a file, for `meshrig formats`;
	// "" means "animation + rig".
	SceneReads string
	// Note says what else the files hold, for a format the library reads
	// but no command takes as input.
	Note string
}

// SceneOptions controls how a Scene reader samples animation.
type SceneOptions struct {
	// FPS samples every clip at this rate, or finer where needed so each
	// clip ends on its last key; 0 uses each clip's own key times when
	// they are evenly spaced, else 30 fps (or finer, likewise).
	FPS float64
	// Clip keeps only the clip of this name; "" keeps all.
	Clip string
	// Object keeps only the object at this path ("/body/bodyShape") of a
	// file that holds several (Alembic); "" reads every animated mesh as
	// one.
	Object string
	// Frames keeps only these frames of each clip, counted at the
	// sampling rate; the others are not sampled. The zero value keeps all.
	Frames FrameRange
	// Context, when not nil, stops sampling when it is done; the reader
	// then returns its error.
	Context context.Context
}

// ObjectInfo describes one object of a file that holds several (Alembic),
// for listings such as meshrig info.
type ObjectInfo struct {
	// Path is the object's full path; Type its schema
	// ("AbcGeom_PolyMesh_v1", "AbcGeom_Xform_v3").
	Path, Type string
	// Verts and Faces count a mesh's vertices and polygons (0 otherwise).
	Verts, Faces int
	// Samples is the number of samples of its animated data (positions or
	// transform), with their first and last times in seconds, and FPS
	// their rate when evenly spaced (else 0).
	Samples    int
	Start, End float64
	FPS        float64
	// FirstVert is where the object's vertices start in the read mesh;
	// -1 when the object was not read (not a mesh, not animated, not
	// picked). Note says why, when it was not.
	FirstVert int
	Note      string
}

// Scene is what an animated file holds.
type Scene struct {
	// Sequence is the animation sampled into frames, one seq.Clip per
	// clip; nil for a file with no animation, when Mesh is set.
	Sequence *seq.Sequence
	// Mesh is the rest (bind) pose mesh.
	Mesh *mesh.Mesh
	// Rig is the file's own skeleton, weights and motion, when it has them:
	// ground truth to compare against. Its clips match Sequence's.
	Rig *rig.Rig
	// Skeleton is the file's skeleton when it has one but no skin weights
	// (an FBX file whose bones animate an unskinned mesh); nil when Rig
	// is set or the file has no skeleton. SkeletonClips is its motion, one
	// clip per clip of Sequence, in Skeleton's joint order.
	Skeleton      *rig.Skeleton
	SkeletonClips []rig.Clip
	// Files lists the files read: the scene file first, then every side
	// file opened (buffers, images). A Format.Scene reader gives names in
	// its fs.FS; ReadScene turns them into paths.
	Files []string
	// Objects lists the file's objects, for a format that holds several
	// (Alembic); nil otherwise.
	Objects []ObjectInfo
}

// WriteOptions controls writers.
type WriteOptions struct {
	// Version selects a format version ("1.4.1" or "1.5" for Collada); ""
	// is the format's default.
	Version string
	// JSON asks a format with a text and a binary form for the text one
	// (glTF: .gltf JSON with its buffer embedded, not a .glb). WriteFile
	// sets it from the extension.
	JSON bool
}

var (
	mu      sync.RWMutex
	formats []*Format
)

// Register makes a format known to Load and WriteFile. It panics on an
// extension registered twice, a programming error.
func Register(f Format) {
	mu.Lock()
	defer mu.Unlock()
	for _, g := range formats {
		for _, a := range g.Exts {
			for _, b := range f.Exts {
				if a == b {
					panic("format: extension " + a + " registered by " + g.Name + " and " + f.Name)
				}
			}
		}
	}
	formats = append(formats, &f)
}

// Formats returns the registered formats sorted by name.
func Formats() []*Format {
	mu.RLock()
	defer mu.RUnlock()
	out := append([]*Format(nil), formats...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ByPath returns the format of a file name by its extension (after
// stripping ".gz") and whether the file is gzip-compressed.
func ByPath(name string) (f *Format, gz bool, err error) {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".gz") {
		gz = true
		lower = strings.TrimSuffix(lower, ".gz")
	}
	ext := filepath.Ext(lower)
	mu.RLock()
	defer mu.RUnlock()
	for _, g := range formats {
		for _, e := range g.Exts {
			if e == ext {
				return g, gz, nil
			}
		}
	}
	return nil, gz, fmt.Errorf("%s: %w: unknown extension %q", name, ErrUnsupported, ext)
}
