package collada

import (
	"strings"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// animationsOf writes every clip as one <animation> sampling the local
// matrix of every joint at each frame (times f/FPS, so each clip starts
// at 0; LINEAR interpolation), and an <animation_clip> naming it. A
// clip's scale tracks (--stretch) are in the matrices: T·R·S, inherited
// by the children as a node's matrix is in COLLADA, as in glTF.
//
// The clip's channels sit directly in its animation rather than in one
// nested animation per joint: assimp registers only animations that hold
// channels as clip targets, and builds one aiAnimation per clip from
// them. The time and interpolation sources are shared by the joints.
func animationsOf(r *rig.Rig, jids []string, n namer) ([]animation, []animationClip) {
	nj := r.Skeleton.Len()
	var anims []animation
	var clips []animationClip
	for c := range r.Clips {
		cl := &r.Clips[c]
		id := n.take(ncname(cl.Name, "clip"), "", "-time", "-time-array", "-interpolation", "-interpolation-array", "-clip")
		times := make([]float64, cl.Frames)
		for f := range times {
			times[f] = float64(f) / cl.FPS
		}
		a := animation{ID: id, Name: cl.Name, Sources: []source{
			floatSource(id+"-time", string(appendFloats(nil, times...)), cl.Frames, cl.Frames, 1, param{"TIME", "float"}),
			nameSource(id+"-interpolation", strings.TrimSpace(strings.Repeat("LINEAR ", cl.Frames)), cl.Frames, param{"INTERPOLATION", "name"}),
		}}
		for j := 0; j < nj; j++ {
			jid := n.take(id+"-"+jids[j], "-output", "-output-array", "-sampler")
			out := make([]byte, 0, 16*12*cl.Frames)
			for f := 0; f < cl.Frames; f++ {
				k := f*nj + j
				out = appendMatrix(out, linalg.TRS(cl.Translation[k], cl.Rotation[k], cl.ScaleAt(f, j, nj)))
			}
			a.Sources = append(a.Sources, floatSource(jid+"-output", string(out), 16*cl.Frames, cl.Frames, 16, param{"TRANSFORM", "float4x4"}))
			a.Samplers = append(a.Samplers, sampler{ID: jid + "-sampler", Inputs: []input{
				{Semantic: "INPUT", Source: "#" + id + "-time"},
				{Semantic: "OUTPUT", Source: "#" + jid + "-output"},
				{Semantic: "INTERPOLATION", Source: "#" + id + "-interpolation"},
			}})
			a.Channels = append(a.Channels, channel{Source: "#" + jid + "-sampler", Target: jids[j] + "/transform"})
		}
		anims = append(anims, a)
		clips = append(clips, animationClip{ID: id + "-clip", Name: cl.Name, Start: 0, End: number(times[len(times)-1]),
			Instances: []instance{{URL: "#" + id}}})
	}
	return anims, clips
}
