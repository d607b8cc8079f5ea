package abc

import (
	"fmt"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// pick chooses the meshes to read: the one object asks for, or every
// animated mesh of constant topology (every mesh when none is animated).
func (a *Archive) pick(all []*candidate, infos []format.ObjectInfo, object string) ([]*candidate, error) {
	var paths []string
	for _, c := range all {
		paths = append(paths, c.mesh.Object.Path)
	}
	if len(all) == 0 {
		return nil, a.Root.errf("%w: the file has no PolyMesh objects", format.ErrNoFrames)
	}
	if object != "" {
		var under []*candidate
		for _, c := range all {
			p := c.mesh.Object.Path
			if p == object || strings.HasPrefix(p, strings.TrimSuffix(object, "/")+"/") {
				under = append(under, c)
			}
		}
		switch {
		case len(under) == 0 && a.Find(object) == nil:
			return nil, fmt.Errorf("--object %s: no such object; the meshes are %s", object, strings.Join(paths, ", "))
		case len(under) == 0:
			return nil, fmt.Errorf("--object %s: no PolyMesh at or below it; the meshes are %s", object, strings.Join(paths, ", "))
		case len(under) > 1:
			var ps []string
			for _, c := range under {
				ps = append(ps, c.mesh.Object.Path)
			}
			return nil, fmt.Errorf("--object %s: %d meshes below it (%s); pick one", object, len(under), strings.Join(ps, ", "))
		}
		c := under[0]
		if i, what, err := a.Topology(c.mesh); err != nil {
			return nil, err
		} else if i >= 0 {
			return nil, c.mesh.Object.errf("the topology changes at sample %d (time %.6g s): %s", i, a.Samplings[c.mesh.Sampling].Time(i), what)
		}
		return under, nil
	}
	var moving []*candidate
	for _, c := range all {
		if c.animated() {
			moving = append(moving, c)
		}
	}
	if len(moving) == 0 {
		moving = all
	}
	var out []*candidate
	for _, c := range moving {
		i, what, err := a.Topology(c.mesh)
		if err != nil {
			return nil, err
		}
		if i >= 0 {
			infos[c.info].Note = fmt.Sprintf("not read: the topology changes at sample %d (%s); pick it with --object to see the error", i, what)
			continue
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, a.Root.errf("%w: every mesh changes topology over time (%s)", format.ErrNoFrames, strings.Join(paths, ", "))
	}
	for _, c := range all {
		if infos[c.info].Note == "" && !contains(out, c) {
			infos[c.info].Note = "not read: not animated"
		}
	}
	return out, nil
}

func contains(cs []*candidate, c *candidate) bool {
	for _, d := range cs {
		if d == c {
			return true
		}
	}
	return false
}
