import {AbsoluteFill, Composition, Easing, interpolate, useCurrentFrame, useVideoConfig} from 'remotion';

const TitleCard: React.FC = () => {
  const frame = useCurrentFrame();
  const {fps} = useVideoConfig();
  const ramp = (start: number, length: number, easing = Easing.out(Easing.cubic)) =>
    interpolate(frame, [start * fps, (start + length) * fps], [0, 1],
      {extrapolateLeft: 'clamp', extrapolateRight: 'clamp', easing});
  return (
    <AbsoluteFill style={{backgroundColor: '#101820', justifyContent: 'center', alignItems: 'center', gap: 16}}>
      <div style={{display: 'flex', gap: 4}}>
        {'STRATA'.split('').map((c, i) => {
          const p = ramp(0.08 * i, 0.6);
          return <span key={i} style={{font: 'bold 144px DejaVu Sans', color: 'white', opacity: p,
                                       transform: `translateY(${(1 - p) * 60}px)`}}>{c}</span>;
        })}
      </div>
      <div style={{font: '40px DejaVu Sans', color: '#9AA5B1', opacity: ramp(0.9, 0.4)}}>Core Animation, rendered to video</div>
      <div style={{width: 360, height: 10, borderRadius: 5, background: '#FF5A36', transform: `scaleX(${ramp(1.2, 0.8)})`}} />
    </AbsoluteFill>
  );
};

export const Root: React.FC = () => (
  <Composition id="TitleCard" component={TitleCard} durationInFrames={90} fps={30} width={1280} height={720} />
);
