package fbx

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// animation adds an AnimationStack per clip, with one layer keying every
// joint's rotation (Euler XYZ degrees, continuous), the translation of
// every joint that leaves its rest offset and the scale of every joint
// that has one (rig.Clip.Scale), on the joints' models; it returns the
// Takes records.
func (b *builder) animation(r *rig.Rig, models []int64) []*Node {
	sk := &r.Skeleton
	nj := sk.Len()
	var takes []*Node
	for ci := range r.Clips {
		c := &r.Clips[ci]
		stop := ticks(c.Frames-1, c.FPS)
		stack := b.object("AnimationStack", c.Name, "", node("Properties70", nil,
			prop70("LocalStart", "KTime", "Time", "", pL(0)), prop70("LocalStop", "KTime", "Time", "", pL(stop)),
			prop70("ReferenceStart", "KTime", "Time", "", pL(0)), prop70("ReferenceStop", "KTime", "Time", "", pL(stop))))
		layer := b.object("AnimationLayer", "BaseLayer", "")
		b.oo(layer, stack)
		times := make([]int64, c.Frames)
		for f := range times {
			times[f] = ticks(f, c.FPS)
		}
		for j := 0; j < nj; j++ {
			rot := make([]linalg.Vec3, c.Frames)
			prev := linalg.Vec3{}
			moved := false
			for f := 0; f < c.Frames; f++ {
				rot[f] = eulerXYZ(c.Rotation[f*nj+j], prev)
				prev = rot[f]
				moved = moved || c.Translation[f*nj+j] != sk.Offset(rig.JointID(j))
			}
			b.curves(layer, models[j], "R", "Lcl Rotation", times, rot)
			if moved {
				tr := make([]linalg.Vec3, c.Frames)
				for f := range tr {
					tr[f] = c.Translation[f*nj+j]
				}
				b.curves(layer, models[j], "T", "Lcl Translation", times, tr)
			}
			if c.HasScale() {
				// Squash and stretch (--stretch): Lcl Scaling, which
				// InheritType RSrs (build's) passes down as glTF's T·R·S
				// does.
				sc := make([]linalg.Vec3, c.Frames)
				scaled := false
				for f := range sc {
					// Within float32's normal range, so a valid scale stays
					// positive and finite in the file's keys.
					s := c.ScaleAt(f, j, nj)
					for k := range s {
						s[k] = min(max(s[k], 0x1p-126), math.MaxFloat32)
					}
					sc[f] = s
					scaled = scaled || sc[f] != linalg.Vec3{1, 1, 1}
				}
				if scaled {
					b.curves(layer, models[j], "S", "Lcl Scaling", times, sc)
				}
			}
		}
		takes = append(takes, node("Take", []Property{pS(c.Name)}, one("FileName", pS(c.Name+".tak")),
			node("LocalTime", []Property{pL(0), pL(stop)}), node("ReferenceTime", []Property{pL(0), pL(stop)})))
	}
	return takes
}

// curves adds a curve node on model's property prop with an X, Y and Z
// curve keyed at times.
func (b *builder) curves(layer, model int64, short, prop string, times []int64, vals []linalg.Vec3) {
	cn := b.object("AnimationCurveNode", short, "", node("Properties70", nil,
		prop70("d|X", "Number", "", "A", pD(vals[0][0])), prop70("d|Y", "Number", "", "A", pD(vals[0][1])),
		prop70("d|Z", "Number", "", "A", pD(vals[0][2]))))
	b.oo(cn, layer)
	b.op(cn, model, prop)
	for k, axis := range []string{"d|X", "d|Y", "d|Z"} {
		v := make([]float32, len(vals))
		for f := range vals {
			v[f] = float32(vals[f][k])
		}
		cv := b.object("AnimationCurve", "", "",
			one("Default", pD(vals[0][k])), one("KeyVer", pI(4008)),
			node("KeyTime", []Property{{Type: 'l', I64: times}}),
			node("KeyValueFloat", []Property{{Type: 'f', F32: v}}),
			node("KeyAttrFlags", []Property{{Type: 'i', I32: []int32{interpLinear}}}),
			node("KeyAttrDataFloat", []Property{{Type: 'f', F32: []float32{0, 0, 0, 0}}}),
			node("KeyAttrRefCount", []Property{{Type: 'i', I32: []int32{int32(len(times))}}}))
		b.op(cv, cn, axis)
	}
}
