import { PictureOutlined } from '@ant-design/icons';
import type { ArtModel } from '@huafang/contracts';
import './parameter-form.css';

/** A model in a dropdown: its cover thumbnail, name and base model. */
export function ModelOption({ model }: { model: ArtModel }) {
  return (
    <div className="hf-model-option">
      {model.cover ? (
        <img src={model.cover} alt="" className="hf-model-thumb" />
      ) : (
        <span className="hf-model-thumb hf-model-thumb-empty">
          <PictureOutlined />
        </span>
      )}
      <span className="hf-model-option-name">{model.modelName}</span>
      <span className="hf-muted">{model.baseModel}</span>
    </div>
  );
}
