# Imports an FBX into Blender (headless) and writes what TestWriteBlender
# compares: the bone count, the actions, UV layers, materials and images,
# and the skinned mesh's world positions at the frames asked.
#   blender -b --factory-startup --python blender_sample.py -- IN.fbx OUT.json F1,F2,...
import bpy, sys, json

argv = sys.argv[sys.argv.index("--") + 1:]
src, out, frames = argv[0], argv[1], [int(x) for x in argv[2].split(",")]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=src)
scene = bpy.context.scene
arms = [o for o in scene.objects if o.type == 'ARMATURE']
meshes = [o for o in scene.objects if o.type == 'MESH']
res = {"bones": sum(len(a.data.bones) for a in arms), "fps": scene.render.fps,
       "actions": [a.name for a in bpy.data.actions], "meshes": len(meshes),
       "uv_layers": [l.name for l in meshes[0].data.uv_layers] if meshes else [],
       "materials": [m.name for m in meshes[0].data.materials if m] if meshes else [],
       "images": [[i.name, list(i.size)] for i in bpy.data.images],
       "frames": {}}
for f in frames:
    scene.frame_set(f)
    dg = bpy.context.evaluated_depsgraph_get()
    ob = meshes[0].evaluated_get(dg)
    me = ob.to_mesh()
    res["frames"][str(f)] = [list(ob.matrix_world @ v.co) for v in me.vertices]
    ob.to_mesh_clear()
with open(out, "w") as fh:
    json.dump(res, fh)
