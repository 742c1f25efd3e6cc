// What this client can re-send inline: the URDF (and meshes) of every robot
// and the body of every scene it was given, keyed by content id. A server
// that answers ROBOT_NOT_REGISTERED / SCENE_NOT_REGISTERED for one of these
// ids gets it inline on the next send.

import { robotIdFor, sceneIdFor } from "./content_ids";
import type { MeshFile } from "./generated/motion/v1/MeshFile";
import type { RobotRef } from "./generated/motion/v1/RobotRef";
import type { Scene } from "./generated/motion/v1/Scene";
import type { SceneRef } from "./generated/motion/v1/SceneRef";

export interface KnownRobot {
  urdf: string;
  meshes: MeshFile[];
}

export class KnownContent {
  private readonly robots = new Map<string, KnownRobot>();
  private readonly scenes = new Map<string, Scene>();

  /** Remembers a robot and returns its robot_id (computed locally, as the server does). */
  addRobot(urdf: string, meshes: MeshFile[] = []): string {
    const id = robotIdFor(urdf, meshes);
    if (!this.robots.has(id)) this.robots.set(id, { urdf, meshes: [...meshes] });
    return id;
  }

  /** Remembers a scene under `sceneId` (default: computed locally). */
  addScene(scene: Scene, sceneId: string = sceneIdFor(scene)): string {
    if (!this.scenes.has(sceneId)) this.scenes.set(sceneId, scene);
    return sceneId;
  }

  robot(id: string): KnownRobot | undefined {
    return this.robots.get(id);
  }

  scene(id: string): Scene | undefined {
    return this.scenes.get(id);
  }

  /**
   * Puts the known URDF and meshes into `ref`. False when the ref already
   * carries a URDF or its id is unknown here: nothing more could be sent.
   */
  attachRobot(ref: RobotRef): boolean {
    if (ref.urdf) return false;
    const known = this.robots.get(ref.robot_id ?? "");
    if (!known) return false;
    ref.urdf = known.urdf;
    ref.meshes = known.meshes;
    return true;
  }

  /** The same for a SceneRef. */
  attachScene(ref: SceneRef): boolean {
    if (ref.scene) return false;
    const known = this.scenes.get(ref.scene_id ?? "");
    if (!known) return false;
    ref.scene = known;
    return true;
  }
}
