import { AppstoreOutlined, UserOutlined } from '@ant-design/icons';
import { Menu, Skeleton } from 'antd';
import { useNavigate } from 'react-router';
import { categoryUrl, MINE_CATEGORY_ID, useCurrentCategory } from './use-current-category';
import './tasks.css';

/** The categories of the task tree, as the side menu of /tasks. */
export function TaskCategoryMenu() {
  const navigate = useNavigate();
  const { tree, categories, category } = useCurrentCategory();

  if (tree.isPending) {
    return <Skeleton active title={false} paragraph={{ rows: 5 }} className="hf-side-skeleton" />;
  }
  return (
    <Menu
      mode="inline"
      className="hf-side-menu"
      selectedKeys={category ? [category.id] : []}
      items={[
        {
          type: 'group',
          label: '任务分类',
          children: categories.map((node) => ({
            key: node.id,
            icon: node.id === MINE_CATEGORY_ID ? <UserOutlined /> : <AppstoreOutlined />,
            label: node.name,
          })),
        },
      ]}
      onClick={({ key }) => navigate(categoryUrl(key))}
    />
  );
}
