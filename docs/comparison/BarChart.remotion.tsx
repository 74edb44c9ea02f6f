import {AbsoluteFill, Composition, spring, useCurrentFrame, useVideoConfig} from 'remotion';

const values = [42, 68, 55, 91, 76];
const BarChart: React.FC = () => {
  const frame = useCurrentFrame();
  const {fps} = useVideoConfig();
  return (
    <AbsoluteFill style={{backgroundColor: 'white', flexDirection: 'row', justifyContent: 'center', alignItems: 'flex-end',
                          gap: 48, paddingBottom: 60}}>
      {values.map((v, i) => (
        <div key={i} style={{width: 120, height: 4 * v, background: '#0969DA', transformOrigin: 'bottom',
                             transform: `scaleY(${spring({frame: frame - 0.15 * i * fps, fps})})`}} />
      ))}
    </AbsoluteFill>
  );
};

export const Root: React.FC = () => (
  <Composition id="BarChart" component={BarChart} durationInFrames={90} fps={30} width={1280} height={720} />
);
