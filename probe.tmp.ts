import Docker from 'dockerode';
import { runInContainer } from './src/service/sandbox/files/container-command';
import { DockerConnection } from './src/service/sandbox/docker/docker-status';
const d = new Docker();
const conn = new DockerConnection();
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  const lap = (name: string) => { const n = performance.now(); console.log(name, (n - t).toFixed(1)); t = n; };
  await conn.require(); lap('require');
  await d.getImage('dockhand/sandbox:1.0.0').inspect(); lap('image inspect');
  const c = await d.createContainer({Image:'dockhand/sandbox:1.0.0', Cmd:['sleep','infinity'], User:'dockhand', Labels:{'dev.dockhand.managed':'true','dev.dockhand.test':'probe-timing'}, HostConfig:{NetworkMode:'none', Init:true, Mounts:[{Type:'volume',Source:'dockhand-ws-timing'+i,Target:'/workspace', VolumeOptions:{NoCopy:false, Labels:{'dev.dockhand.managed':'true','dev.dockhand.test':'probe-timing'}, DriverConfig:{Name:'local',Options:{}}}}]}}); lap('create');
  await c.start(); lap('start');
  const r = await runInContainer(c, ['sh','-c','mkdir -p "$1" && chown "$2" "$0" "$1"','/workspace','/workspace/project','dockhand']); lap('prep exec ' + r.exitCode);
  await runInContainer(c, ['true']); lap('true exec');
  const e = await c.exec({Cmd:['true'], AttachStdout:false, AttachStderr:false}); await e.start({Detach:true}); lap('detached exec start');
  await c.inspect(); lap('inspect');
  await c.remove({force:true, v:true}); await d.getVolume('dockhand-ws-timing'+i).remove(); lap('remove');
}
