package usd

import (
	"fmt"
	"io"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/rig"
)

// The prims of a written layer. Reading (Read) expects this layout.
const (
	rootName     = "Rig"        // the SkelRoot, the layer's defaultPrim
	skelName     = "Skeleton"   // the Skeleton under it
	animScope    = "Animations" // a Scope holding one SkelAnimation per clip
	meshName     = "Body"       // the skinned Mesh
	materialName = "Materials"  // a Scope holding the Materials
)

func init() {
	format.Register(format.Format{Name: "usd", Exts: []string{".usda"}, Write: Write, Scene: ReadScene})
	format.Register(format.Format{Name: "usdc", Exts: []string{".usdc"}, Write: WriteUSDC, Scene: ReadScene})
	format.Register(format.Format{Name: "usdz", Exts: []string{".usdz"}, Write: WriteUSDZ, Scene: ReadScene})
}

// Write writes r as a USD text layer (.usda) following UsdSkel: a SkelRoot
// "/Rig" holding the Skeleton, one SkelAnimation per clip under
// "/Rig/Animations" (the Skeleton's skel:animationSource is the first),
// the skinned Mesh "/Rig/Body" and its Materials. Texture files are
// referenced by the path the input gave them (relative to the input's
// folder); an image the input embedded has no file to point to, and its
// material keeps only its factors: WriteUSDZ carries such images inside
// the package. The options are unused.
func Write(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	return writeLayer(w, r, func(k int) string { return r.Mesh.Surface.Images[k].Path })
}

// writeLayer writes the layer; asset gives image k's asset path, "" when
// the image cannot be referenced.
func writeLayer(w io.Writer, r *rig.Rig, asset func(k int) string) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("usd: invalid rig: %w", err)
	}
	e := newEnc(w)
	writeHeader(e, r)
	paths := jointPaths(&r.Skeleton)
	e.line("def SkelRoot " + quote(rootName))
	e.open("")
	writeSkeleton(e, r, paths)
	if len(r.Clips) > 0 {
		e.line("")
		writeAnimations(e, r, paths)
	}
	e.line("")
	mats := materialPaths(r)
	writeMesh(e, r, mats)
	if len(mats) > 0 {
		e.line("")
		writeMaterials(e, r, mats, asset)
	}
	e.close()
	return e.flush()
}

// writeHeader writes the layer's metadata: the default prim, Y up, one
// unit a metre (glTF's convention, which meshrig's rigs share), and the
// time codes of the first clip (one per frame).
func writeHeader(e *enc, r *rig.Rig) {
	e.line("#usda 1.0")
	e.line("(")
	e.indent++
	e.line("defaultPrim = " + quote(rootName))
	e.line(`doc = "Written by meshrig"`)
	if len(r.Clips) > 0 {
		c := r.Clips[0]
		e.line("endTimeCode = " + string(f64(nil, float64(c.Frames-1))))
		e.line("framesPerSecond = " + string(f64(nil, c.FPS)))
	}
	e.line("metersPerUnit = 1")
	if len(r.Clips) > 0 {
		e.line("startTimeCode = 0")
		e.line("timeCodesPerSecond = " + string(f64(nil, r.Clips[0].FPS)))
	}
	e.line(`upAxis = "Y"`)
	e.indent--
	e.line(")")
	e.line("")
}

// timeCode returns the time code of frame f of a clip played at fps on a
// stage of tcps time codes per second.
func timeCode(f int, fps, tcps float64) float64 {
	if fps == tcps {
		return float64(f)
	}
	return float64(f) * tcps / fps
}
