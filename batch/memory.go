package batch

import (
	"path/filepath"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// MemoryModel predicts an item's peak resident memory before it starts,
// from its size: Base + PerVertex · vertices + PerVertexFrame · vertices ·
// frames. The per-vertex term is there because ledeng searches its
// skeleton on up to 40 sampled frames whatever the clip's length, so part
// of its memory follows the vertices alone. The constants bound measured
// peaks of `meshrig rig` on the shared sequences (README, batch section). The size is known for per-frame mesh
// inputs (folders, globs and lists of OBJ/OFF frames: frames counted,
// vertices read from the first frame); for point caches and scene files
// (glTF, FBX, Alembic …) it is not known without reading them, and
// Unknown bytes are assumed unless the item sets memory_mb.
type MemoryModel struct {
	Base           int64   // bytes: the process, the loaded libraries, small buffers
	PerVertex      float64 // bytes per vertex
	PerVertexFrame float64 // bytes per vertex per frame
	Unknown        int64   // bytes assumed for an item of unknown size
}

// DefaultModel bounds ledeng's (the default method's) peaks on the four
// shared sequences with room for the garbage collector's timing: measured
// 33–72 MiB (lion-poses to horse-gallop), predicted 56–102 MiB.
var DefaultModel = MemoryModel{Base: 32 << 20, PerVertex: 4096, PerVertexFrame: 96, Unknown: 2 << 30}

// Size is what the model knows of an item: vertices × frames, 0 when
// unknown.
type Size struct {
	Vertices, Frames int
}

// Measure sizes an item from its files: frames are the per-frame mesh
// files other than a rest.* or reference.* pose, vertices those of the
// first frame. It reads one mesh; a size it cannot tell (no mesh frames:
// a cache or a scene) is zero. Other files beside the frames (a folder's
// truth.glb) are not counted, as `meshrig rig` does not read them.
func (it Item) Measure(files []string) Size {
	for _, in := range it.Inputs {
		if f, _, err := format.ByPath(in); err == nil && (f.Scene != nil || f.Cache != nil) {
			return Size{}
		}
	}
	var frames []string
	for _, p := range files {
		f, _, err := format.ByPath(p)
		if err != nil || f.Scene != nil || f.Cache != nil || (f.Mesh == nil && f.MeshFS == nil) {
			continue // a cache's or scene's frames are inside it: unknown here
		}
		base := strings.ToLower(filepath.Base(p))
		if strings.HasPrefix(base, "rest.") || strings.HasPrefix(base, "reference.") {
			continue
		}
		frames = append(frames, p)
	}
	if len(frames) == 0 {
		return Size{}
	}
	m, err := format.ReadMesh(frames[0])
	if err != nil {
		return Size{}
	}
	return Size{Vertices: len(m.Verts), Frames: len(frames)}
}

// Estimate is the predicted peak in bytes of an item of size s.
func (m MemoryModel) Estimate(s Size) int64 {
	if s.Vertices == 0 || s.Frames == 0 {
		return m.Unknown
	}
	v, f := float64(s.Vertices), float64(s.Frames)
	return m.Base + int64(m.PerVertex*v+m.PerVertexFrame*v*f)
}
