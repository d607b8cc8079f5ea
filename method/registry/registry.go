package registry

import (
	"context"
	"fmt"
	"strings"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/method/skinweights"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Entry is one method.
type Entry struct {
	// Name is what --method takes and reports print.
	Name string
	// Aliases are other names accepted for it (the papers' names).
	Aliases []string
	// Paper cites the method ("Le & Deng 2014"), Title is the paper's;
	// Description says in one line what the method does.
	Paper, Title, Description string
	// Params lists the Options fields the method reads, with defaults.
	Params []Param
	// Free is whether the method can skip the skeleton (Options.Free).
	Free bool

	// Rig extracts a skeletal rig from a mesh animation (animation
	// methods; nil for static ones).
	Rig func(ctx context.Context, s *seq.Sequence, o Options) (*rig.Rig, error)
	// Skeleton finds a curve skeleton in one static mesh (static methods;
	// nil for animation ones). Bind then gives the rig.
	Skeleton func(ctx context.Context, m *mesh.Mesh, o Options) (*static.Skeleton, error)
	// Refit solves a rig again with its (edited) skeleton held fixed. For
	// an animation method s is the animation and the result comes from
	// refit.Animation: every animation method shares it (their own
	// solvers find skeletons; a fixed skeleton leaves one problem, the
	// skeletal fit of method/skinning), so the rig it returns does not
	// depend on which one is asked. For a static method s is nil and the
	// weights are bound again with o.Weights (refit.Static), the Report
	// then zero.
	Refit func(ctx context.Context, r *rig.Rig, s *seq.Sequence, o Options) (*rig.Rig, refit.Report, error)
}

// Param documents one Options field a method reads.
type Param struct {
	// Field is the Options field's name; Default its default as text.
	Field, Default string
}

// Skeletonize runs a static entry's Skeleton and binds m to it (Bind).
func (e *Entry) Skeletonize(ctx context.Context, m *mesh.Mesh, o Options) (*rig.Rig, error) {
	if e.Skeleton == nil {
		return nil, fmt.Errorf("%s is not a static-mesh method", e.Name)
	}
	s, err := e.Skeleton(ctx, m, o)
	if err != nil {
		return nil, err
	}
	r, err := Bind(m, s, o)
	if err != nil {
		return nil, fmt.Errorf("%s skeleton: %w", e.Name, err)
	}
	return r, nil
}

// Bind binds m to a static skeleton with o.Weights ("" is heat) and at
// most o.MaxInfluences joints per vertex, and returns the rig (no clips;
// see static.Skeleton.Rig for the joints' order and names).
func Bind(m *mesh.Mesh, s *static.Skeleton, o Options) (*rig.Rig, error) {
	scheme, err := skinweights.ParseScheme(o.Weights)
	if err != nil {
		return nil, err
	}
	skin, err := skinweights.Compute(m, s, scheme, skinweights.Options{MaxInfluences: o.MaxInfluences})
	if err != nil {
		return nil, err
	}
	return s.Rig(m, skin)
}

// Animation returns the mesh-animation method called name (or one of its
// aliases); the error lists the names available.
func Animation(name string) (*Entry, error) { return find(animation, name, "method") }

// Static returns the static-mesh method called name (or an alias); the
// error lists the names available.
func Static(name string) (*Entry, error) { return find(statics, name, "static method") }

// AnimationNames lists the animation methods' names, the default first.
func AnimationNames() []string { return names(animation) }

// StaticNames lists the static methods' names, the default first.
func StaticNames() []string { return names(statics) }

// Animations returns every animation entry, the default first.
func Animations() []*Entry { return append([]*Entry(nil), animation...) }

// Statics returns every static entry, the default first.
func Statics() []*Entry { return append([]*Entry(nil), statics...) }

func find(list []*Entry, name, what string) (*Entry, error) {
	for _, e := range list {
		if e.Name == name {
			return e, nil
		}
		for _, a := range e.Aliases {
			if a == name {
				return e, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown %s %q (available: %s)", what, name, strings.Join(names(list), ", "))
}

func names(list []*Entry) []string {
	out := make([]string, len(list))
	for k, e := range list {
		out[k] = e.Name
	}
	return out
}
