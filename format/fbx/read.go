package fbx

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// maxFile bounds the size of an FBX file read into memory.
const maxFile = 1 << 30

func init() {
	format.Register(format.Format{Name: "fbx", Exts: []string{".fbx"}, Mesh: Read, Scene: ReadScene, Write: Write})
}

// Read reads the rest mesh of an FBX file (format.Format.Mesh, so a
// file such as Bone_Geom.fbx can be --rest for a cache): every mesh model
// joined, in file order, in its bind pose (see ReadScene).
func Read(r io.Reader) (*mesh.Mesh, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("larger than the %d bytes meshrig reads", maxFile)
	}
	s, err := load(data)
	if err != nil {
		return nil, err
	}
	return s.rest, nil
}

// ReadFile decodes a binary or ASCII FBX file and builds its object
// model. Errors in an ASCII file name its line and column.
func ReadFile(data []byte) (*File, error) {
	doc, err := Decode(data)
	if err != nil {
		return nil, err
	}
	f, err := NewFile(doc)
	if err != nil && !bytes.HasPrefix(data, []byte(Magic)) {
		return nil, asciiLines(data, err)
	}
	return f, err
}

// readAll reads a regular file of at most maxFile bytes from fsys.
func readAll(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, format.NotRegular(name, st.Mode())
	}
	if st.Size() > maxFile {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d meshrig reads", name, st.Size(), maxFile)
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()))
	if _, err := io.Copy(&buf, io.LimitReader(f, maxFile+1)); err != nil {
		return nil, err
	}
	if buf.Len() > maxFile {
		return nil, fmt.Errorf("%s: more than the %d bytes meshrig reads", name, maxFile)
	}
	return buf.Bytes(), nil
}

// sceneData is what ReadScene builds before sampling.
type sceneData struct {
	file   *File
	h      *hierarchy
	parts  []*part
	rest   *mesh.Mesh
	stacks []*anim
}

// load builds the meshes, their skins and the animation stacks; errors
// in an ASCII file name its line.
func load(data []byte) (*sceneData, error) {
	s, err := loadDoc(data)
	if err != nil && !bytes.HasPrefix(data, []byte(Magic)) {
		return nil, asciiLines(data, err)
	}
	return s, err
}

func loadDoc(data []byte) (*sceneData, error) {
	f, err := ReadFile(data)
	if err != nil {
		return nil, err
	}
	h, err := newHierarchy(f)
	if err != nil {
		return nil, err
	}
	pose, err := bindPose(f)
	if err != nil {
		return nil, err
	}
	s := &sceneData{file: f, h: h}
	restGlobal := h.globals(h.rest, nil)
	var verts []linalg.Vec3
	var polys [][]int
	var tris []corner
	for _, o := range f.Objects {
		if o.Class != "Geometry" || o.Type != "Mesh" {
			continue
		}
		models := f.parentsOf(o, "Model")
		if len(models) == 0 {
			continue // a geometry no model places is not in the scene
		}
		if len(models) > 1 {
			return nil, errAt(o.Node.Offset, "geometry %d is instanced by %d models: %w", o.ID, len(models), format.ErrUnsupported)
		}
		g, err := readGeometry(o)
		if err != nil {
			return nil, err
		}
		mi := h.index[models[0].ID]
		p := &part{model: mi, geo: g, first: len(verts), geom: h.rest[mi].Geometric(), bind: restGlobal[mi]}
		if p.clusters, err = readClusters(f, o, len(g.Verts)); err != nil {
			return nil, err
		}
		// The mesh's bind-time placement: its bind pose matrix, else what
		// the first cluster says, else its rest transform.
		if m, ok := pose[models[0].ID]; ok {
			p.bind = m
		} else if len(p.clusters) > 0 {
			p.bind = p.clusters[0].TransformLink.Mul(p.clusters[0].Transform)
		}
		place := p.bind.Mul(p.geom)
		for _, v := range g.Verts {
			verts = append(verts, place.Apply(v))
		}
		for k := 0; k+1 < len(g.PolyStart); k++ {
			poly := make([]int, 0, g.PolyStart[k+1]-g.PolyStart[k])
			for _, v := range g.PolyVerts[g.PolyStart[k]:g.PolyStart[k+1]] {
				poly = append(poly, p.first+v)
			}
			polys = append(polys, poly)
		}
		tris = fanCorners(len(s.parts), g, tris)
		s.parts = append(s.parts, p)
	}
	if len(s.parts) == 0 {
		return nil, fmt.Errorf("the file has no mesh: %w", format.ErrNoFrames)
	}
	for _, v := range verts {
		if !v.IsFinite() || math.Abs(v[0])+math.Abs(v[1])+math.Abs(v[2]) > 1e300 {
			return nil, fmt.Errorf("a vertex placed by its model's transform is not finite")
		}
	}
	if s.rest, err = mesh.New(verts, polys); err != nil {
		return nil, err
	}
	if len(tris) != len(s.rest.Tris) {
		return nil, fmt.Errorf("%d triangles from the polygons, %d expected", len(s.rest.Tris), len(tris))
	}
	if s.rest.Surface = surfaceOf(f, h, s.parts, tris); s.rest.Surface != nil {
		if err := s.rest.Surface.Validate(len(verts), len(tris)); err != nil {
			return nil, fmt.Errorf("surface: %w", err)
		}
	}
	if s.stacks, err = readStacks(f, h); err != nil {
		return nil, err
	}
	return s, nil
}
