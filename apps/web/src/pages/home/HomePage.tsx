import { ThunderboltOutlined } from '@ant-design/icons';
import { Button } from 'antd';
// Only the text area: `Input` carries Search, Password and OTP along as its static members.
import TextArea from 'antd/es/input/TextArea';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { requireLogin } from '../../features/account/require-login';
import { AppHeader } from '../../layouts/AppHeader';
import { OPEN_LOGIN_PARAM } from '../../services/navigation';
import { useSession } from '../../stores/session';
import { FeaturedTemplates } from './FeaturedTemplates';
import { LatestWorks } from './LatestWorks';
import './home.css';

const PROMPT_IDEAS = [
  '水墨山水，云雾缭绕的远山',
  '赛博朋克城市夜景，霓虹灯雨',
  '穿汉服的少女在樱花树下',
  '毛茸茸的橘猫，午后阳光',
];

export default function HomePage() {
  const [prompt, setPrompt] = useState('');
  const openDialog = useSession((state) => state.openDialog);
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();

  useEffect(() => {
    if (!searchParams.has(OPEN_LOGIN_PARAM)) return;
    if (!useSession.getState().token) openDialog('login');
    setSearchParams({}, { replace: true });
  }, [searchParams, setSearchParams, openDialog]);

  function start() {
    // A guest's words wait through login or sign-up, then open in /chuangyi (require-login.ts).
    if (!requireLogin({ kind: 'prompt', prompt: prompt.trim() })) return;
    navigate('/chuangyi', { state: { prompt: prompt.trim() } });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter starts, Shift+Enter breaks the line; Enter that confirms an IME candidate must not start.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      start();
    }
  }

  return (
    <div className="hf-home">
      <section className="hf-hero">
        <AppHeader transparent />
        <div className="hf-hero-body">
          <h1 className="hf-hero-title">让每一个想象，都跃然纸上</h1>
          <p className="hf-hero-sub">用一句中文描述你想要的画面，画坊帮你把它画出来</p>
          <div className="hf-hero-box">
            <TextArea
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
              onKeyDown={onKeyDown}
              placeholder="描述你想要的画面…"
              autoSize={{ minRows: 2, maxRows: 5 }}
              variant="borderless"
              maxLength={500}
              aria-label="画面描述"
            />
            <Button type="primary" size="large" icon={<ThunderboltOutlined />} onClick={start}>
              开始创作
            </Button>
          </div>
          <div className="hf-hero-ideas">
            <span>试试：</span>
            {PROMPT_IDEAS.map((idea) => (
              <button key={idea} type="button" className="hf-idea" onClick={() => setPrompt(idea)}>
                {idea}
              </button>
            ))}
          </div>
        </div>
      </section>
      <main className="hf-home-main">
        <FeaturedTemplates />
        <LatestWorks />
      </main>
      <footer className="hf-footer">
        <span>© 画坊</span>
        <Link to="/servicePolicy" target="_blank" rel="noopener">
          服务条款
        </Link>
        <Link to="/privacyAgreement" target="_blank" rel="noopener">
          隐私协议
        </Link>
        <Link to="/questionnaire" target="_blank" rel="noopener">
          问卷调查
        </Link>
      </footer>
    </div>
  );
}
