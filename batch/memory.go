package batch

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// MemoryModel predicts an item's peak resident memory before it starts,
// from its size: Base + PerVertex · vertices + PerVertexFrame · vertices ·
// frames. The per-vertex term is there because ledeng searches its
// skeleton on up to 40 sampled frames whatever the clip's length, so part
// of its memory follows the vertices alone. The constants bound measured
// peaks of `meshrig rig` on the shared sequences (README, batch
// section). Item.Measure tells the size of per-frame mesh inputs and
// point caches; for scene files (glTF, FBX, Alembic …) it is not known
// without reading them, and Unknown bytes are assumed unless the item
// sets memory_mb.
type MemoryModel struct {
	Base           int64   // bytes: the process, the loaded libraries, small buffers
	PerVertex      float64 // bytes per vertex
	PerVertexFrame float64 // bytes per vertex per frame
	Unknown        int64   // bytes assumed for an item of unknown size
}

// DefaultModel bounds ledeng's (the default method's) peaks with room for
// the garbage collector's timing: with float32 frames, measured 24–50 MiB
// on the four shared sequences (lion-poses to horse-gallop; predicted
// 53–80 MiB), 95 MB on a 16k-vertex × 120-frame biped (179), 522 MB on
// 103k × 120 (950) and 2.49 GB on 103k × 1000 (4.6 GB).
var DefaultModel = MemoryModel{Base: 32 << 20, PerVertex: 4096, PerVertexFrame: 40, Unknown: 2 << 30}

// Size is what the model knows of an item: vertices × frames, 0 when
// unknown.
type Size struct {
	Vertices, Frames int
}

// Measure sizes an item from its files. Per-frame meshes: the frames are
// the mesh files other than a rest.* or reference.* pose, the vertices
// those of the first frame (one mesh is read). Point caches (.pc2, .mdd,
// not gzipped): the vertices are the rest mesh's (--rest, or the mesh
// file given beside them), the frames at most the caches' bytes over 12
// per vertex (float32 x, y, z; their short headers make it an upper
// bound by a frame or so). A size it cannot tell — a scene file (glTF,
// FBX, Alembic …), a gzipped cache — is zero. Other files beside the
// frames (a folder's truth.glb) are not counted: `meshrig rig` does not
// read them.
func (it Item) Measure(files []string) Size {
	var cacheBytes int64
	for _, in := range it.Inputs {
		f, gz, err := format.ByPath(in)
		switch {
		case err != nil:
		case f.Scene != nil:
			return Size{}
		case f.Cache != nil:
			st, err := os.Stat(in)
			if gz || err != nil {
				return Size{}
			}
			cacheBytes += st.Size()
		}
	}
	var meshes []string
	for _, p := range files {
		f, _, err := format.ByPath(p)
		if err != nil || f.Scene != nil || f.Cache != nil || (f.Mesh == nil && f.MeshFS == nil) {
			continue
		}
		base := strings.ToLower(filepath.Base(p))
		if cacheBytes == 0 && (strings.HasPrefix(base, "rest.") || strings.HasPrefix(base, "reference.")) {
			continue
		}
		meshes = append(meshes, p)
	}
	if cacheBytes > 0 {
		rest := it.Rig.Rest
		if rest == "" && len(meshes) > 0 {
			rest = meshes[0]
		}
		if rest == "" || strings.HasPrefix(rest, "frame:") {
			return Size{}
		}
		m, err := format.ReadMesh(rest)
		if err != nil || len(m.Verts) == 0 {
			return Size{}
		}
		return Size{Vertices: len(m.Verts), Frames: int(max(1, cacheBytes/(12*int64(len(m.Verts)))))}
	}
	if len(meshes) == 0 {
		return Size{}
	}
	m, err := format.ReadMesh(meshes[0])
	if err != nil {
		return Size{}
	}
	return Size{Vertices: len(m.Verts), Frames: len(meshes)}
}

// Estimate is the predicted peak in bytes of an item of size s.
func (m MemoryModel) Estimate(s Size) int64 {
	if s.Vertices == 0 || s.Frames == 0 {
		return m.Unknown
	}
	v, f := float64(s.Vertices), float64(s.Frames)
	return m.Base + int64(m.PerVertex*v+m.PerVertexFrame*v*f)
}
