// Package character generates procedural characters with a known skeleton,
// skinning weights and motion — ground truth for tests, the demo and
// benchmarks. Each character is one closed, connected surface (a smooth
// union of capsules around its bones, polygonized by marching tetrahedra),
// skinned with smooth weights and animated with smooth joint rotations.
// The same kind, options and seed always give the same rig, bit for bit.
//
//	r, _ := character.Generate(character.Biped, character.Options{})
//	s := character.Sequence(r) // the frames the rig plays
package character

import (
	"fmt"
	"sort"
	"strings"

	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Kind names a character.
type Kind string

// The kinds of character.
const (
	Biped     Kind = "biped"
	Quadruped Kind = "quadruped"
	Hand      Kind = "hand"
	Snake     Kind = "snake"
)

var descriptions = map[Kind]string{
	Biped:     "a walking humanoid: pelvis, spine, neck, head, arms and legs (17 joints)",
	Quadruped: "a trotting four-legged animal with neck, head and a four-joint tail (21 joints)",
	Hand:      "a hand with five fingers flexing in turn (16 joints)",
	Snake:     "a swimming snake/tentacle chain of 12 joints",
}

// Kinds returns every kind with a one-line description, sorted by name.
func Kinds() []string {
	var out []string
	for k, d := range descriptions {
		out = append(out, fmt.Sprintf("%-10s %s", k, d))
	}
	sort.Strings(out)
	return out
}

// ParseKind returns the kind named s.
func ParseKind(s string) (Kind, error) {
	k := Kind(strings.ToLower(s))
	if _, ok := descriptions[k]; !ok {
		var names []string
		for k := range descriptions {
			names = append(names, string(k))
		}
		sort.Strings(names)
		return "", fmt.Errorf("unknown character %q (have %s)", s, strings.Join(names, ", "))
	}
	return k, nil
}

// Options controls generation. The zero value gives the defaults.
type Options struct {
	// Frames of animation (default 60) at FPS (default 30).
	Frames int
	FPS    float64
	// Vertices is the approximate vertex count of the surface (default
	// 4000); the polygonization cell also stays below the thinnest radius.
	Vertices int
	// Seed varies the motion's phases and amplitudes (default 1).
	Seed uint64
	// Shells adds separate closed shells (eyes on the biped's and
	// quadruped's head, a ring on the snake, a ring on the hand's index
	// finger) that move with their joint: a multi-shell input.
	Shells bool
}

func (o Options) withDefaults() Options {
	if o.Frames <= 0 {
		o.Frames = 60
	}
	if o.FPS <= 0 {
		o.FPS = 30
	}
	if o.Vertices <= 0 {
		o.Vertices = 4000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// Generate builds a character of kind k: its rest mesh, skeleton, skin and
// one clip named after the kind.
func Generate(k Kind, opt Options) (*rig.Rig, error) {
	opt = opt.withDefaults()
	body, ok := bodies[k]
	if !ok {
		_, err := ParseKind(string(k))
		return nil, err
	}
	b := body()
	m, err := b.surface(opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", k, err)
	}
	sk := b.skeleton()
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: b.skin(m.Verts)}
	for i := b.shellStart; i < len(m.Verts) && b.shellStart > 0; i++ {
		r.Skin[i] = rig.Influence{Joint: [4]rig.JointID{b.shellJoint(m.Verts[i])}, Weight: [4]float64{1}}
	}
	r.Clips = []rig.Clip{b.animate(string(k), opt)}
	return r, r.Validate()
}

// Sequence replays the rig's clips into a mesh animation whose rest pose
// is the rig's mesh.
func Sequence(r *rig.Rig) *seq.Sequence {
	s := seq.New(r.Mesh)
	for c, cl := range r.Clips {
		s.StartClip(cl.Name, cl.FPS)
		for f := 0; f < cl.Frames; f++ {
			// Frames of a valid rig are finite and sized right.
			_ = s.AddFrame(r.Frame(nil, c, f), fmt.Sprintf("%s#%d", cl.Name, f+1))
		}
	}
	return s
}
