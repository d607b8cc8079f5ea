// Package viewer is the local HTTP server behind `meshrig view`: it holds
// one rig (and optionally the animation it was made from), serves the page
// of viewer/web and the JSON and binary endpoints that page uses, applies
// skeleton edits (rig/edit) with undo and redo, re-solves the rig in the
// background (method/refit), measures it against its input
// (metric.Compare) and saves it through the atomic writer.
//
// Endpoints (JSON unless said; every /api/ call carries the token in the
// X-Meshrig-Token header; errors are 4xx with {"error": "one line"}):
//
//	GET    /, /app.js, /app.css    the page (Options.Web); no token needed
//	GET    /api/state              State: version, joints, clips, report, dirty, undo/redo, seam copies
//	GET    /api/rig.glb            the current rig as the glTF writer writes it
//	GET    /api/error?clip=C&frame=F  N float32 (little-endian): per vertex |rig − input| in % of d
//	GET    /api/input?clip=C&frame=F  3·N float32: the input's positions at that frame
//	POST   /api/edit               {"kind":"move|split|add|remove|reparent|root|rename", ...} → State
//	POST   /api/undo, /api/redo    → State
//	POST   /api/solve              start a re-solve → 202; 409 while one runs
//	GET    /api/solve              {"running","stage","done","total","error"}
//	DELETE /api/solve              cancel the running re-solve
//	POST   /api/save               {"path":"out.glb|out.dae","collada":"1.4.1|1.5"} → {"path": absolute}
//	POST   /api/log                {"event":"first-frame|frame-time","ms":N}: the page's timings → 204
//
// A bad request never changes the rig. Security: it binds 127.0.0.1
// unless told otherwise, the token is 128 random bits per run, the Host
// header must name the bound address (no DNS rebinding), a browser's
// Origin must be this server's page, request bodies
// are limited to 1 MiB, and Save writes only inside Options.SaveDir and
// never over one of Options.Inputs.
//
//	srv, err := viewer.New(viewer.Options{Rig: r, Input: s, Web: web.FS})
//	if err != nil { ... }
//	fmt.Println(srv.URL())
//	err = srv.Serve(ctx) // until ctx is done
package viewer
